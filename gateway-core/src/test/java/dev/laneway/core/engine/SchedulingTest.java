package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.SessionKey;
import dev.laneway.core.scheduling.ClassPolicy;
import dev.laneway.core.scheduling.ClassRule;
import dev.laneway.core.scheduling.MessageKind;
import dev.laneway.core.scheduling.OverBudget;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.scheduling.TenantLimits;
import dev.laneway.core.scheduling.Tenants;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** docs/behaviour.md §11: the gateway's runs go through the scheduler by class and tenant. */
class SchedulingTest {

    private static SchedulingSettings scheduling(Map<PriorityClass, ClassPolicy> classes, TenantLimits tenantDefaults,
                                                 List<ClassRule> rules) {
        return new SchedulingSettings(SchedulingSettings.Mode.FAIR, SchedulingSettings.DEFAULT_AGING_AFTER, 0.5, classes,
                Tenants.Scope.SPACE, tenantDefaults, Map.of(), rules, Duration.ofSeconds(5));
    }

    /** An un-mentioned message in a guild's channel: normal class, tenant the guild. */
    private static InboundMessage.Builder guildChatter(GatewayHarness h, String channel, String text) {
        return h.message(text).direct(false).mentionsBot(false).spaceId("guild").chatId(channel).senderId("member-" + channel);
    }

    private static boolean undecided(GatewayHarness h, String messageId) {
        return h.dispositions.entries().stream().noneMatch(e -> messageId.equals(e.message().platformMessageId()));
    }

    @Test
    void aDmWaitingBehindGroupChatterGetsTheNextSlot() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.send(guildChatter(h, "c1", "first"));
        h.send(guildChatter(h, "c2", "second"));
        h.send(guildChatter(h, "c3", "third"));
        h.dm("urgent");
        assertEquals(1, h.agent.runs().size());
        h.agent.run(0).complete("ok");
        assertEquals("urgent", h.agent.run(1).prompt(), "interactive before normal");
        h.agent.run(1).complete("ok");
        assertEquals("second", h.agent.run(2).prompt());
    }

    @Test
    void fifoModeKeepsArrivalOrder() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1)
                .scheduling(SchedulingSettings.defaults().withMode(SchedulingSettings.Mode.FIFO)));
        h.send(guildChatter(h, "c1", "first"));
        h.send(guildChatter(h, "c2", "second"));
        h.dm("urgent");
        h.agent.run(0).complete("ok");
        assertEquals("second", h.agent.run(1).prompt());
    }

    @Test
    void aMessageExpectedToWaitBeyondItsBudgetIsDeferredAndItsSenderToldOnce() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1).scheduling(scheduling(
                Map.of(PriorityClass.INTERACTIVE, new ClassPolicy(Duration.ofSeconds(4), OverBudget.DEFER)),
                TenantLimits.DEFAULT, List.of())));
        h.send(h.message("holds main").chatId("other").senderId("other"));
        String first = h.dm("waits");
        h.dm("and again"); // joins the waiting session: no second notice
        assertEquals(List.of("⏳ Busy right now: you are #1 in line, about 5 s."), h.channel.textsTo("chat"));
        h.agent.run(0).complete("done");
        assertEquals("waits", h.agent.run(1).prompt());
        assertTrue(undecided(h, first), "deferred, not refused: it is still pending");
    }

    @Test
    void aMessageOverBudgetWithShedIsTurnedAwayWithTheBusyReplyAndNothingQueued() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1).scheduling(scheduling(
                Map.of(PriorityClass.INTERACTIVE, new ClassPolicy(Duration.ofSeconds(4), OverBudget.SHED)),
                TenantLimits.DEFAULT, List.of())));
        h.send(h.message("holds main").chatId("other").senderId("other"));
        String shed = h.dm("turned away");
        assertEquals(List.of("⏳ Busy right now. Please try again in 5 s."), h.channel.textsTo("chat"));
        assertEquals(Disposition.REJECTED_BUSY, h.dispositions.of(shed));
        h.agent.run(0).complete("done");
        assertEquals(1, h.agent.runs().size(), "nothing was queued");
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void aTenantAtItsPendingCapGetsTheBusyReply() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1).scheduling(scheduling(
                Map.of(PriorityClass.NORMAL, new ClassPolicy(Duration.ofHours(1), OverBudget.DEFER)),
                new TenantLimits(1, 0, 1), List.of())));
        h.send(guildChatter(h, "c1", "runs"));
        h.send(guildChatter(h, "c2", "waits"));
        String third = h.send(guildChatter(h, "c3", "one too many"));
        assertEquals(Disposition.REJECTED_BUSY, h.dispositions.of(third));
        assertEquals(List.of("⏳ Busy right now. Please try again in 10 s."), h.channel.textsTo("c3"));
        String dm = h.dm("another tenant");
        assertTrue(undecided(h, dm), "another tenant may still wait");
    }

    @Test
    void aRuleCanMakeAChatBackground() {
        ClassRule rule = new ClassRule("test", "chat", Set.of(MessageKind.DM), PriorityClass.BACKGROUND);
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1).scheduling(scheduling(Map.of(),
                TenantLimits.DEFAULT, List.of(rule))));
        h.send(h.message("holds main").chatId("other").senderId("other"));
        h.dm("background now");
        h.send(guildChatter(h, "c1", "normal"));
        h.agent.run(0).complete("done");
        assertEquals("normal", h.agent.run(1).prompt());
    }

    @Test
    void statusShowsWhereTheSessionsRunStandsInLine() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.send(h.message("holds main").chatId("other").senderId("other"));
        h.send(h.message("first in line").chatId("one").senderId("one"));
        h.dm("second in line");
        var status = h.gateway.status(SessionKey.of("test:dm:user"), "test");
        assertEquals(2, status.waiting().position());
        assertEquals(List.of("main"), status.lanes().stream().map(l -> l.name()).filter("main"::equals).toList());
        assertTrue(h.gateway.scheduler().classes().get(PriorityClass.INTERACTIVE).waiting() == 2);
        h.agent.run(0).complete("done");
        assertEquals(1, h.gateway.status(SessionKey.of("test:dm:user"), "test").waiting().position());
    }

    @Test
    void aScheduledJobsRunAlsoHoldsTheCronLane() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(4).laneCaps(Map.of("cron", 1)));
        h.send(h.message("job one").chatId("a").senderId("schedule:one").origin(InboundMessage.Origin.SCHEDULE));
        h.send(h.message("job two").chatId("b").senderId("schedule:two").origin(InboundMessage.Origin.SCHEDULE));
        h.dm("a person");
        assertEquals(List.of("job one", "a person"), h.agent.prompts(), "the second job waits for the cron lane");
        h.agent.run(0).complete("done");
        assertEquals("job two", h.agent.run(2).prompt());
    }
}
