package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.AgentBinding;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.scheduling.ClassPolicy;
import dev.laneway.core.scheduling.OverBudget;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.scheduling.TenantLimits;
import dev.laneway.core.scheduling.Tenants;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** docs/behaviour.md §13: the agent ladder: a run continues on its agent's fallbacks when that agent cannot answer. */
class FallbackTest {

    private static final String FAILURE_503 = "⚠️ Sorry, something went wrong while answering. (HTTP 503)";

    private final ScriptedAgent main = new ScriptedAgent("main");
    private final ScriptedAgent local = new ScriptedAgent("local");

    /** {@code main} falls back to {@code local}; {@code notice}: whether main's runs tell the user. */
    private AgentRoster mainThenLocal(boolean notice) {
        return AgentRoster.builder().agent("main", main, List.of("local"), notice).agent("local", local)
                .defaultAgent("main").build();
    }

    @Test
    void anUnavailableAgentsRunContinuesOnItsFallback_withTheSamePromptSessionAndClaim() {
        GatewayHarness h = new GatewayHarness(s -> s, mainThenLocal(false));
        String id = h.dm("hello");
        main.run(0).failUnavailable("circuit open");

        assertEquals(1, local.runs().size(), "the fallback took the run at once");
        var first = main.run(0).request();
        var second = local.run(0).request();
        assertEquals("hello", second.prompt());
        assertEquals(first.session(), second.session(), "same session: the store's same history");
        assertEquals(first.runId(), second.runId(), "the same run");
        assertEquals(first.claim(), second.claim());
        assertEquals(1, second.attempt(), "the fallback gets its own attempts");

        main.run(0).reply("a late word from the agent that gave up");
        local.run(0).complete("from local");
        assertEquals(List.of("from local"), h.channel.texts(), "no failure notice, no late reply; notice off");
        assertEquals(Disposition.RAN, h.dispositions.of(id));
        assertEquals(0, h.gateway.busySessions());
    }

    @Test
    void theLadderIsTriedInOrder_eachAgentOnce_andTheLastFailureIsTheNormalFailureText() {
        ScriptedAgent b = new ScriptedAgent("b");
        ScriptedAgent c = new ScriptedAgent("c");
        ScriptedAgent d = new ScriptedAgent("d");
        // main -> [b, c], b -> [d]: main, b, d, c
        AgentRoster roster = AgentRoster.builder().agent("main", main, List.of("b", "c"), true)
                .agent("b", b, List.of("d"), false).agent("c", c, List.of("b"), false).agent("d", d)
                .defaultAgent("main").build();
        assertEquals(List.of("main", "b", "d", "c"), roster.ladder("main"));
        GatewayHarness h = new GatewayHarness(s -> s, roster);
        String id = h.dm("hello");

        main.run(0).failUnavailable("HTTP 503");
        b.run(0).failUnavailable("HTTP 503");
        d.run(0).failUnavailable("HTTP 503");
        assertEquals(1, c.runs().size());
        c.run(0).failUnavailable("HTTP 503");

        assertEquals(List.of(1, 1, 1, 1), List.of(main.runs().size(), b.runs().size(), d.runs().size(), c.runs().size()),
                "each agent once per run, c's own fallback b not again");
        assertEquals(List.of(FAILURE_503), h.channel.texts(), "only the last failure is told; no fallback notice");
        assertEquals(Disposition.RAN, h.dispositions.of(id));
    }

    @Test
    void noFallbackOnceTheRunDeliveredAReply() {
        GatewayHarness h = new GatewayHarness(s -> s, mainThenLocal(true));
        h.dm("hello");
        main.run(0).reply("the first half");
        main.run(0).failUnavailable("HTTP 503");

        assertEquals(0, local.runs().size(), "a fallback would answer the same message twice");
        assertEquals(List.of("the first half", FAILURE_503), h.channel.texts());
    }

    @Test
    void aFailureThatIsNeitherUnavailableNorRetryableIsTheNormalFailure() {
        GatewayHarness h = new GatewayHarness(s -> s, mainThenLocal(true));
        h.dm("hello");
        main.run(0).fail("malformed response", false);

        assertEquals(0, local.runs().size());
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (malformed response)"), h.channel.texts());
    }

    @Test
    void aRetryableFailureIsRetriedOnItsOwnAgentFirst_thenFallsBack() {
        GatewayHarness h = new GatewayHarness(s -> s, mainThenLocal(false));
        h.dm("hello");
        main.run(0).fail("timeout", true);
        h.advance(Duration.ofSeconds(1));
        main.run(1).fail("timeout", true);
        h.advance(Duration.ofSeconds(2));
        assertEquals(0, local.runs().size(), "still the agent's own retries");
        main.run(2).fail("timeout", true);

        assertEquals(3, main.runs().size());
        assertEquals(1, local.runs().size(), "the third timeout in a row: the fallback answers");
        local.run(0).complete("from local");
        assertEquals(List.of("from local"), h.channel.texts());
    }

    @Test
    void aRunPastItsDeadlineFailsWithoutFallingBack() {
        main.runTimeout(Duration.ofSeconds(10));
        GatewayHarness h = new GatewayHarness(s -> s, mainThenLocal(true));
        h.dm("hello");
        h.advance(Duration.ofSeconds(10));

        assertEquals(0, local.runs().size(), "an aborted run ends: a deadline is not an outage");
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (timed out after 10 s)"), h.channel.texts());
    }

    @Test
    void theFallbackNotice_followsTheFallbacksAnswer_whenTheBoundAgentAsksForIt() {
        GatewayHarness h = new GatewayHarness(s -> s, mainThenLocal(true));
        h.dm("hello");
        main.run(0).failUnavailable("circuit open");
        local.run(0).complete("from local");

        assertEquals(List.of("from local", "ℹ️ Answered by local (the main model is unavailable)."), h.channel.texts());

        h.dm("again");
        main.run(1).complete("from main");
        assertEquals("from main", h.channel.texts().get(2));
        assertEquals(3, h.channel.texts().size(), "no notice when the bound agent answered");
    }

    @Test
    void aDegradedMessageGoesStraightToTheFirstFallback_inTheFallbackLane_withoutTheBusyNotice() {
        ScriptedAgent solo = new ScriptedAgent("solo");
        AgentRoster roster = AgentRoster.builder().agent("main", main, List.of("local"), true).agent("local", local)
                .agent("solo", solo)
                .binding(new AgentBinding(null, null, null, "solo-chat", null, null, "solo"))
                .defaultAgent("main").build();
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1).scheduling(degradeInteractiveAfter(4)), roster);
        h.send(h.message("holds main").chatId("other").senderId("other"));
        assertEquals(1, main.runs().size());

        String degraded = h.dm("waits");
        assertEquals(1, local.runs().size(), "it did not wait for main");
        assertEquals("waits", local.run(0).prompt());
        assertEquals(1, h.gateway.lanes().stream().filter(l -> l.name().equals("fallback")).findFirst().orElseThrow()
                .active(), "it holds the fallback lane, not main");
        assertEquals(List.of(), h.channel.textsTo("chat"), "no busy notice: a fallback answers at once");
        local.run(0).complete("from local");
        assertEquals(List.of("from local", "ℹ️ Answered by local (the main model is busy)."), h.channel.textsTo("chat"));
        assertEquals(Disposition.RAN, h.dispositions.of(degraded));

        // an agent without a fallback: degrade acts as defer
        h.send(h.message("no fallback here").chatId("solo-chat").senderId("solo-user"));
        assertEquals(List.of("⏳ Busy right now: you are #1 in line, about 5 s."), h.channel.textsTo("solo-chat"));
        assertEquals(0, solo.runs().size(), "it waits for main");
        main.run(0).complete("done");
        assertEquals("no fallback here", solo.run(0).prompt());
    }

    @Test
    void aDegradedRunWhoseFallbackIsUnavailableStepsDownOnce_andIsThenTheNormalFailure() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1).scheduling(degradeInteractiveAfter(4)),
                mainThenLocal(true));
        h.send(h.message("holds main").chatId("other").senderId("other"));
        h.dm("waits");
        local.run(0).failUnavailable("HTTP 503");

        assertEquals(1, main.runs().size(), "the bound agent is above the fallback on the ladder: never tried again");
        assertEquals(List.of(FAILURE_503), h.channel.textsTo("chat"));
    }

    @Test
    void bindingsPickTheAgent_firstMatchWins_theDefaultLast_andStatusNamesIt() {
        ScriptedAgent support = new ScriptedAgent("support");
        AgentRoster roster = AgentRoster.builder().agent("main", main, List.of("local"), false).agent("local", local)
                .agent("support", support)
                .binding(new AgentBinding("test", null, "guild-1", null, null, false, "support"))
                .binding(new AgentBinding("test", null, null, null, null, false, "local"))
                .defaultAgent("main").build();
        GatewayHarness h = new GatewayHarness(s -> s, roster);
        InboundMessage.Builder inGuild = h.message("in the guild").direct(false).mentionsBot(true).spaceId("guild-1")
                .chatId("g1").senderId("member");
        h.send(inGuild);
        h.send(h.message("another group").direct(false).mentionsBot(true).chatId("g2").senderId("member"));
        h.dm("a dm");

        assertEquals(List.of("in the guild"), support.prompts());
        assertEquals(List.of("another group"), local.prompts());
        assertEquals(List.of("a dm"), main.prompts());

        var status = h.gateway.status(SessionKey.of("test:group:g1"), inGuild.build());
        assertEquals("support", status.agent());
        assertEquals(List.of(), status.fallbacks());
        var dmStatus = h.gateway.status(SessionKey.of("test:dm:user"), h.message("/status").build());
        assertEquals("main", dmStatus.agent());
        assertEquals(List.of("local"), dmStatus.fallbacks());
    }

    @Test
    void aGatewayWithOneAgent_namesNoAgentInStatus() {
        GatewayHarness h = new GatewayHarness();
        assertNull(h.gateway.status(SessionKey.of("test:dm:user"), h.message("/status").build()).agent(),
                "one agent answers everything: /status stays as it was");
    }

    @Test
    void aRestoredMessageIsAnsweredByTheAgentItsBindingNames() {
        InMemoryJournal journal = new InMemoryJournal();
        ManualTime time = new ManualTime();
        ScriptedAgent support = new ScriptedAgent("support");
        GatewayHarness before = new GatewayHarness(s -> s, CommandHandler.NONE, journal, time, AgentRoster.builder()
                .agent("main", main).agent("support", support)
                .binding(new AgentBinding(null, null, null, "help", null, null, "support")).build());
        before.send(before.message("still open").chatId("help").senderId("someone"));
        assertEquals(1, support.runs().size());

        ScriptedAgent mainAfter = new ScriptedAgent("main");
        ScriptedAgent supportAfter = new ScriptedAgent("support");
        new GatewayHarness(s -> s, CommandHandler.NONE, journal, time, AgentRoster.builder()
                .agent("main", mainAfter).agent("support", supportAfter)
                .binding(new AgentBinding(null, null, null, "help", null, null, "support")).build());
        assertEquals(List.of("still open"), supportAfter.prompts(), "the restore resolves the binding the same way");
        assertEquals(0, mainAfter.runs().size());
    }

    @Test
    void newConversationResetsEveryAgent_sinceAnyOfThemMayAnswerTheSession() {
        GatewayHarness h = new GatewayHarness(s -> s, mainThenLocal(false));
        h.gateway.newConversation(SessionKey.of("test:dm:user"));
        assertEquals(List.of("test:dm:user"), main.resets());
        assertEquals(List.of("test:dm:user"), local.resets());
    }

    @Test
    void everyStepDownIsReportedWithItsAgentPairAndReason() {
        List<String> fallbacks = new CopyOnWriteArrayList<>();
        GatewayObserver observer = new GatewayObserver() {
            @Override
            public void fallback(String from, String to, String reason) {
                fallbacks.add(from + "->" + to + " " + reason);
            }
        };
        ManualTime time = new ManualTime();
        FakeChannel channel = new FakeChannel("test");
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor())
                .settings(GatewaySettings.builder().mainMaxConcurrent(1).scheduling(degradeInteractiveAfter(4)).build())
                .agents(mainThenLocal(false)).observer(observer).channel(channel).build();
        gateway.start();
        gateway.accept(InboundMessage.builder("test").text("one").chatId("a").senderId("a").platformMessageId("m1")
                .receivedAt(time.instant()).build());
        gateway.accept(InboundMessage.builder("test").text("two").chatId("b").senderId("b").platformMessageId("m2")
                .receivedAt(time.instant()).build());
        main.run(0).failUnavailable("circuit open");

        assertEquals(List.of("main->local degrade", "main->local unavailable"), fallbacks);
        assertTrue(local.runs().stream().allMatch(run -> run.request().attempt() == 1));
    }

    @Test
    void aDegradedScheduledPromptUsesItsJobAgentsLadder_notItsChatsBinding() {
        ScriptedAgent solo = new ScriptedAgent("solo");
        // the chat's binding (main) has no fallback; the job's agent (solo) falls back on local
        AgentRoster roster = AgentRoster.builder().agent("main", main).agent("solo", solo, List.of("local"), false)
                .agent("local", local).defaultAgent("main").build();
        ManualTime time = new ManualTime();
        FakeChannel channel = new FakeChannel("test");
        var degradeBackground = new SchedulingSettings(SchedulingSettings.Mode.FAIR,
                SchedulingSettings.DEFAULT_AGING_AFTER, 0.5,
                Map.of(PriorityClass.BACKGROUND, new ClassPolicy(Duration.ofSeconds(1), OverBudget.DEGRADE)),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of(), List.of(), Duration.ofSeconds(5));
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor())
                .settings(GatewaySettings.builder().mainMaxConcurrent(1).scheduling(degradeBackground).build())
                .agents(roster).jobAgent("digest", solo).channel(channel).build();
        gateway.start();
        gateway.accept(InboundMessage.builder("test").text("holds main").chatId("a").senderId("a")
                .platformMessageId("m1").receivedAt(time.instant()).build());
        assertTrue(gateway.submitScheduled("digest", new dev.laneway.core.Route("test", "default", "group", null, null),
                "scheduled prompt"));
        assertEquals(1, local.runs().size(), "degraded: it starts on its job agent's fallback at once");
        assertEquals("scheduled prompt", local.run(0).prompt());
        assertEquals(0, solo.runs().size());
    }

    @Test
    void theRosterRefusesUnknownNamesAndCycles() {
        var unknown = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> AgentRoster.builder().agent("main", main, List.of("nope"), false).build());
        assertTrue(unknown.getMessage().contains("nope"), unknown.getMessage());
        var cycle = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> AgentRoster.builder().agent("a", main, List.of("b"), false).agent("b", local, List.of("a"), false)
                        .build());
        assertEquals("fallback cycle: a → b → a", cycle.getMessage());
        assertNull(AgentRoster.findCycle(Map.of("a", List.of("b"), "b", List.of())).orElse(null));
    }

    /** Interactive messages expected to wait longer than {@code seconds} for main are degraded. */
    private static SchedulingSettings degradeInteractiveAfter(int seconds) {
        return new SchedulingSettings(SchedulingSettings.Mode.FAIR, SchedulingSettings.DEFAULT_AGING_AFTER, 0.5,
                Map.of(PriorityClass.INTERACTIVE, new ClassPolicy(Duration.ofSeconds(seconds), OverBudget.DEGRADE)),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of(), List.of(), Duration.ofSeconds(5));
    }
}
