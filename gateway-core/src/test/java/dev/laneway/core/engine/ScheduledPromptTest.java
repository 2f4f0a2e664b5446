package dev.laneway.core.engine;

import dev.laneway.core.agent.AgentBinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A scheduled job's prompt on the way in and in its session (docs/behaviour.md §12): trusted
 * config, so no access check and no command parsing; always a turn of its own, whatever the
 * session's mode; answered by the agent its job names, also after a restore; journaled, so a crash
 * runs it again once.
 */
class ScheduledPromptTest {

    private static final Route GROUP = new Route("test", "default", "group", null, null);

    private static GatewayHarness harness(QueueMode mode) {
        return new GatewayHarness(s -> s.queueDefaults(new QueueSettings(mode, Duration.ofSeconds(1), 20,
                QueueSettings.DEFAULTS.drop())));
    }

    private static InboundMessage.Builder groupMessage(GatewayHarness h, String text) {
        return h.message(text).direct(false).chatId("group").senderId("ada").senderName("Ada");
    }

    @Test
    void aScheduledPromptBypassesTheAccessPolicyAndIsNeverReadAsACommand() {
        CommandHandler everythingIsACommand = (message, context) -> new CommandDecision.Reply("a command reply");
        GatewayHarness h = new GatewayHarness(s -> s, everythingIsACommand, MessageJournal.NONE,
                new ManualTime(), b -> b.access(message -> false));
        h.gateway.submitScheduled("digest", GROUP, "/stop and summarise");
        assertEquals(List.of("/stop and summarise"), h.agent.prompts());
        h.agent.run(0).complete("done");
        assertEquals(List.of("done"), h.channel.texts());
        assertEquals(List.of(Disposition.RAN), h.dispositions.entries().stream().map(e -> e.disposition()).toList());
        InboundMessage message = h.dispositions.entries().get(0).message();
        assertEquals(InboundMessage.Origin.SCHEDULE, message.origin());
        assertEquals("schedule:digest", message.senderId());
        assertEquals("digest", message.senderName());
    }

    @Test
    void aScheduledPromptRefusedByAdmissionPostsNothingInTheChat() {
        try (LogCapture log = LogCapture.of(Reception.class)) {
            GatewayHarness h = new GatewayHarness(s -> s.maxPendingRuns(1));
            h.dm("a person holds the only slot");
            h.gateway.submitScheduled("digest", GROUP, "scheduled prompt");
            assertEquals(List.of(), h.channel.textsTo("group"), "nobody in the chat sent it: no busy reply there");
            assertEquals(Disposition.REJECTED_BUSY, dispositionOfSchedule(h));
            assertEquals(1, log.warnings().stream().filter(w -> w.startsWith("scheduled prompt from schedule:digest was refused"))
                    .count());
        }
    }

    @Test
    void aScheduledPromptTheJournalCannotKeep_postsNoFailureNoticeInTheChat() {
        MessageJournal failing = new dev.laneway.core.testing.ForwardingJournal(MessageJournal.NONE) {
            @Override
            public java.util.concurrent.CompletableFuture<Void> append(dev.laneway.core.store.JournalEntry entry) {
                return java.util.concurrent.CompletableFuture.failedFuture(new IllegalStateException("disk full"));
            }
        };
        try (LogCapture log = LogCapture.of(Reception.class)) {
            GatewayHarness h = new GatewayHarness(s -> s, CommandHandler.NONE, failing, new ManualTime());
            assertFalse(h.gateway.submitScheduled("digest", GROUP, "scheduled prompt"));
            assertEquals(List.of(), h.channel.texts(), "nobody in the chat sent it: no failure notice there");
            assertEquals(1, log.warnings().stream()
                    .filter(w -> w.equals("scheduled prompt from schedule:digest was refused (storage unavailable); this fire is lost"))
                    .count());
        }
    }

    @Test
    void aScheduledPromptInASpace_countsAgainstThatSpacesTenant() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.dm("a person holds main");
        h.gateway.submitScheduled("digest", GROUP, "guild-1", "scheduled prompt");
        assertEquals(List.of("space:test:guild-1"), h.gateway.scheduler().tenants().stream()
                .filter(t -> t.waiting() > 0).map(t -> t.tenant()).toList(), "the job waits in its space's tenant");
    }

    @Test
    void aScheduledPromptInASpace_isAnsweredByThatSpacesBinding() {
        ScriptedAgent general = new ScriptedAgent("general");
        ScriptedAgent support = new ScriptedAgent("support");
        AgentRoster roster = AgentRoster.builder().agent("general", general).agent("support", support)
                .binding(new AgentBinding("test", null, "guild-1", null, null, null, "support"))
                .defaultAgent("general").build();
        GatewayHarness h = new GatewayHarness(s -> s, roster);
        h.gateway.submitScheduled("digest", GROUP, "guild-1", "in the guild");
        h.gateway.submitScheduled("digest", new Route("test", "default", "elsewhere", null, null), "no space");
        assertEquals(List.of("in the guild"), support.prompts(), "the space's binding answers the job in that space");
        support.run(0).complete("done"); // jobs run one at a time: the cron lane's cap is 1
        assertEquals(List.of("no space"), general.prompts());
    }

    @Test
    void submitScheduledSaysWhetherThePromptWasAccepted() {
        GatewayHarness accepting = new GatewayHarness(s -> s);
        assertTrue(accepting.gateway.submitScheduled("digest", GROUP, "scheduled prompt"));
        GatewayHarness full = new GatewayHarness(s -> s.maxPendingRuns(1));
        full.dm("a person holds the only slot");
        assertFalse(full.gateway.submitScheduled("digest", GROUP, "scheduled prompt"));
    }

    @Test
    void aScheduledPromptShedByTheSchedulerPostsNothingInTheChat() {
        var shedBackground = new dev.laneway.core.scheduling.SchedulingSettings(
                dev.laneway.core.scheduling.SchedulingSettings.Mode.FAIR, Duration.ofMinutes(2), 0.5,
                java.util.Map.of(dev.laneway.core.scheduling.PriorityClass.BACKGROUND, new dev.laneway.core.scheduling.ClassPolicy(
                        Duration.ofSeconds(1), dev.laneway.core.scheduling.OverBudget.SHED)),
                dev.laneway.core.scheduling.Tenants.Scope.SPACE, dev.laneway.core.scheduling.TenantLimits.DEFAULT,
                java.util.Map.of(), List.of(), Duration.ofSeconds(5));
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1).scheduling(shedBackground));
        h.dm("a person holds main");
        h.gateway.submitScheduled("digest", GROUP, "scheduled prompt");
        assertEquals(List.of(), h.channel.textsTo("group"));
        assertEquals(Disposition.REJECTED_BUSY, dispositionOfSchedule(h));
        assertEquals(1, h.agent.runs().size());
    }

    @ParameterizedTest
    @EnumSource(QueueMode.class)
    void whateverTheSessionsMode_aScheduledPromptNeitherSteersNorInterruptsAUsersRun_andRunsAlone(QueueMode mode) {
        GatewayHarness h = harness(mode);
        h.send(groupMessage(h, "user question"));
        h.gateway.submitScheduled("digest", GROUP, "scheduled prompt");

        ScriptedAgent.ScriptedRun userRun = h.agent.run(0);
        assertEquals(1, h.agent.runs().size());
        assertFalse(userRun.abortRequested(), "never interrupts a user's run");
        assertEquals(List.of(), userRun.steerTexts(), "never steered into a user's run");

        h.send(groupMessage(h, "user follow-up"));
        if (mode == QueueMode.INTERRUPT) {
            // the user's own interrupt discards what waited before it, the scheduled prompt too
            assertEquals(Disposition.INTERRUPTED, dispositionOfSchedule(h));
            return;
        }
        userRun.complete("answer 1");
        h.advance(Duration.ofSeconds(1));
        assertEquals("scheduled prompt", h.agent.run(1).prompt(), "a turn of its own, never batched");
        assertEquals("schedule:digest", h.agent.run(1).request().senderId());
        h.agent.run(1).complete("digest");
        h.advance(Duration.ofSeconds(1));
        if (h.agent.runs().size() > 2) {
            assertFalse(h.agent.run(2).prompt().contains("scheduled prompt"));
        }
        assertEquals(Disposition.RAN, dispositionOfSchedule(h));
    }

    @Test
    void aUsersSteerDuringAScheduledRun_isNotSteeredIntoIt_butAnsweredInItsOwnTurn() {
        GatewayHarness h = harness(QueueMode.STEER);
        h.gateway.submitScheduled("digest", GROUP, "scheduled prompt");
        h.send(groupMessage(h, "wait, also this"));
        assertEquals(List.of(), h.agent.run(0).steerTexts());
        h.agent.run(0).complete("digest");
        h.advance(Duration.ofSeconds(1));
        assertTrue(h.agent.run(1).prompt().contains("wait, also this"));
    }

    @Test
    void aJobsNamedAgentAnswersItsPrompt_alsoAfterARestore_whileUsersKeepTheGatewaysAgent() {
        InMemoryJournal journal = new InMemoryJournal();
        ScriptedAgent digestBefore = new ScriptedAgent();
        GatewayHarness before = new GatewayHarness(s -> s, CommandHandler.NONE, journal, new ManualTime(),
                b -> b.jobAgent("digest", digestBefore));
        before.gateway.submitScheduled("digest", GROUP, "scheduled prompt");
        before.send(before.message("a DM"));
        assertEquals(List.of("scheduled prompt"), digestBefore.prompts());
        assertEquals(List.of("a DM"), before.agent.prompts());
        // crash before either answered

        ScriptedAgent digestAfter = new ScriptedAgent();
        UnaryOperator<dev.laneway.core.engine.Gateway.Builder> wiring = b -> b.jobAgent("digest", digestAfter);
        GatewayHarness after = new GatewayHarness(s -> s, CommandHandler.NONE, journal,
                new ManualTime(before.time.instant().plusSeconds(30)), wiring);
        assertEquals(List.of("scheduled prompt"), digestAfter.prompts(), "restored and run by the job's agent");
        assertEquals(List.of("a DM"), after.agent.prompts());
        digestAfter.run(0).complete("digest");
        after.agent.run(0).complete("hi");
        assertEquals(List.of(), journal.pending());

        GatewayHarness again = new GatewayHarness(s -> s, CommandHandler.NONE, journal,
                new ManualTime(after.time.instant().plusSeconds(30)), wiring);
        assertEquals(1, digestAfter.runs().size(), "answered once: a second restart runs nothing");
        assertEquals(List.of(), again.agent.prompts());
    }

    @Test
    void aScheduledPromptThatExpiredWhileDown_endsWithoutANoticeInTheChat() {
        InMemoryJournal journal = new InMemoryJournal();
        GatewayHarness before = new GatewayHarness(s -> s.queueTtl(Duration.ofMinutes(10)), CommandHandler.NONE, journal,
                new ManualTime());
        before.gateway.submitScheduled("digest", GROUP, "scheduled prompt");
        GatewayHarness after = new GatewayHarness(s -> s.queueTtl(Duration.ofMinutes(10)), CommandHandler.NONE, journal,
                new ManualTime(before.time.instant().plus(Duration.ofHours(1))));
        assertEquals(List.of(), after.agent.prompts());
        assertEquals(List.of(), after.channel.texts(), "nobody to tell: no expiry notice in the group");
        assertEquals(Disposition.EXPIRED, after.dispositions.entries().get(0).disposition());
    }

    @Test
    void scheduledTargetBusy_followsTheTargetsSession() {
        GatewayHarness h = harness(QueueMode.COLLECT);
        assertFalse(h.gateway.scheduledTargetBusy("digest", GROUP));
        h.send(groupMessage(h, "user question"));
        assertTrue(h.gateway.scheduledTargetBusy("digest", GROUP));
        assertFalse(h.gateway.scheduledTargetBusy("digest", new Route("test", "default", "other", null, null)));
        h.agent.run(0).complete("answer");
        assertFalse(h.gateway.scheduledTargetBusy("digest", GROUP));
    }

    private static Disposition dispositionOfSchedule(GatewayHarness h) {
        return h.dispositions.entries().stream()
                .filter(e -> e.message().origin() == InboundMessage.Origin.SCHEDULE)
                .map(e -> e.disposition()).findFirst().orElse(null);
    }
}
