package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.SessionScope;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ScriptedAgent.ScriptedRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random interleavings of messages (three sessions with several senders each, every mode and drop
 * policy), run completions and failures, /stop and timer ticks. The sessions: every DM shares one
 * ({@code dmScope: main}, one route per sender), and two group chats ({@code groupScope: chat}, so
 * a chat's threads share its session) with trusted and untrusted senders in more than one thread.
 *
 * <p>After every step: at most one active run per session and never more than the main cap. At the
 * end: every message ended in exactly one disposition; a DM session's runs started in arrival order,
 * and in a group each sender's did (senders take turns there, docs/behaviour.md §5.3);
 * no turn's prompt (its messages or its overflow summary) holds text from another route or another
 * sender authority than the turn's own; and no run was steered by a message of another conversation
 * (another DM, chat or thread of the session) or another sender authority.
 */
class QueueInvariantsPropertyTest {

    private static final int MAIN_CAP = 2;
    private static final Set<String> ADMINS = Set.of("admin0", "admin1");
    private static final Pattern ANY = Pattern.compile("#m(\\d+)#");
    private static final Pattern QUEUED = Pattern.compile("(?m)^#m(\\d+)#$");

    /** Who sends: a DM (chat = sender) or a group message in a chat and thread. */
    private record Sender(String id, boolean direct, String chat, String thread) {

        SessionKey session() {
            return direct ? SessionScope.MAIN_DM : SessionKey.of("test:group:" + chat);
        }

        boolean trusted() {
            return ADMINS.contains(id);
        }

        /** The conversation and authority a turn from this sender speaks for. */
        String audience() {
            return "test/" + chat + "/" + thread + "/" + trusted();
        }
    }

    private static final List<Sender> SENDERS = List.of(
            new Sender("admin0", true, "dm-admin0", null),
            new Sender("guest0", true, "dm-guest0", null),
            new Sender("admin0", false, "g0", null),
            new Sender("guest0", false, "g0", "t1"),
            new Sender("guest1", false, "g0", null),
            new Sender("admin1", false, "g0", "t1"),
            new Sender("guest0", false, "g1", null),
            new Sender("admin1", false, "g1", null));
    private static final List<SessionKey> SESSIONS = List.of(SessionScope.MAIN_DM,
            SessionKey.of("test:group:g0"), SessionKey.of("test:group:g1"));

    @Property(tries = 300)
    void queueInvariantsHoldUnderRandomInterleavings(
            @ForAll @Size(min = 1, max = 80) List<@IntRange(min = 0, max = 1_000_000) Integer> ops,
            @ForAll boolean steerable, @ForAll boolean abortIsSlow) {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(MAIN_CAP).maxPendingRuns(25)
                .sessionScope(new SessionScope(SessionScope.DmScope.MAIN, SessionScope.GroupScope.CHAT))
                .commandAllowFrom(Map.of("test", ADMINS))
                .queueDefaults(new QueueSettings(QueueMode.COLLECT, Duration.ofMillis(500), 3, DropPolicy.SUMMARIZE)));
        h.agent.steerable(steerable).completesOnAbort(!abortIsSlow);
        List<String> sentIds = new ArrayList<>();
        Map<Integer, Sender> senderOf = new HashMap<>();
        int counter = 0;
        for (int v : ops) {
            int op = v % 10;
            int a = (v / 10) % 3;
            if (op <= 4) {
                Sender sender = SENDERS.get((v / 10) % SENDERS.size());
                QueueMode mode = QueueMode.values()[(v / 80) % QueueMode.values().length];
                DropPolicy drop = DropPolicy.values()[(v / 400) % DropPolicy.values().length];
                h.gateway.setSessionOverride(sender.session(), new QueueOverride(mode, null, null, drop));
                senderOf.put(++counter, sender);
                sentIds.add(h.send(message(h, sender, "#m" + counter + "#")));
            } else if (op <= 6) {
                finishOldestOpenRun(h, a);
            } else if (op <= 8) {
                h.advanceMillis((v / 10) % 3000);
            } else {
                h.gateway.stop(SESSIONS.get(a));
            }
            assertRunCaps(h);
        }
        settle(h);
        assertEquals(0, h.gateway.busySessions());
        assertEquals(0, h.gateway.pendingMessages());
        for (String id : sentIds) {
            h.dispositions.of(id); // throws unless exactly one
        }
        assertEquals(sentIds.size(), h.dispositions.size());
        assertRunsStartInArrivalOrder(h, senderOf);
        assertNoTurnMixesRoutesOrAuthorities(h, senderOf);
        assertNoRunIsSteeredFromAnotherAudience(h, senderOf);
    }

    private static InboundMessage.Builder message(GatewayHarness h, Sender sender, String text) {
        return h.message(text).senderId(sender.id()).senderName(sender.id()).direct(sender.direct())
                .chatId(sender.chat()).threadId(sender.thread());
    }

    private static void finishOldestOpenRun(GatewayHarness h, int how) {
        List<ScriptedRun> open = h.agent.openRuns();
        if (open.isEmpty()) {
            return;
        }
        ScriptedRun run = open.get(0);
        switch (how) {
            case 0 -> run.seeSteers().complete("ok");
            case 1 -> run.fail("HTTP 500", true);
            default -> run.fail("boom", false);
        }
    }

    private static void assertRunCaps(GatewayHarness h) {
        List<ScriptedRun> open = h.agent.openRuns();
        assertTrue(open.size() <= MAIN_CAP, "more runs than the main cap: " + open.size());
        Map<String, Integer> perSession = new HashMap<>();
        open.forEach(run -> perSession.merge(run.request().session().value(), 1, Integer::sum));
        perSession.forEach((session, count) -> assertEquals(1, count, "two active runs in " + session));
    }

    private static void settle(GatewayHarness h) {
        for (int round = 0; round < 1000 && (h.gateway.busySessions() > 0 || !h.agent.openRuns().isEmpty()); round++) {
            h.agent.openRuns().forEach(run -> run.seeSteers().complete());
            h.advance(Duration.ofSeconds(30));
        }
    }

    /**
     * Order of real queued messages, per session in the DM session and per sender in a group (where
     * senders take turns); overflow summary lines ride on a later turn of their audience.
     */
    private static void assertRunsStartInArrivalOrder(GatewayHarness h, Map<Integer, Sender> senderOf) {
        Map<String, Integer> lastFirst = new HashMap<>();
        for (ScriptedRun run : h.agent.runs()) {
            if (run.request().attempt() > 1) {
                continue;
            }
            String session = run.request().session().value();
            Map<String, Integer> firsts = new HashMap<>(); // session (and sender, in a group) -> first #m in this run
            for (int number : numbers(QUEUED, run.prompt())) { // none: a turn carrying only an overflow summary
                Sender sender = senderOf.get(number);
                firsts.merge(sender.direct() ? session : session + " from " + sender.id(), number, Math::min);
            }
            firsts.forEach((order, first) -> {
                Integer previous = lastFirst.put(order, first);
                if (previous != null) {
                    assertTrue(first > previous, "run of " + order + " with #m" + first + " started after one with #m"
                            + previous);
                }
            });
        }
    }

    private static void assertNoTurnMixesRoutesOrAuthorities(GatewayHarness h, Map<Integer, Sender> senderOf) {
        for (ScriptedRun run : h.agent.runs()) {
            Route route = run.request().route();
            String turn = route.channel() + "/" + route.chatId() + "/" + route.threadId() + "/"
                    + ADMINS.contains(run.request().senderId());
            for (int number : numbers(ANY, run.prompt())) {
                assertEquals(turn, senderOf.get(number).audience(),
                        "#m" + number + " ran in a turn of another route or authority:\n" + run.prompt());
            }
        }
    }

    /**
     * A steer is answered in the run's conversation and with the run's permissions: its sender must be
     * in the run's conversation (channel, chat, thread) and have the run's authority.
     */
    private static void assertNoRunIsSteeredFromAnotherAudience(GatewayHarness h, Map<Integer, Sender> senderOf) {
        for (ScriptedRun run : h.agent.runs()) {
            Route route = run.request().route();
            String audience = route.channel() + "/" + route.chatId() + "/" + route.threadId() + "/"
                    + ADMINS.contains(run.request().senderId());
            for (String steer : run.steerTexts()) {
                for (int number : numbers(ANY, steer)) {
                    assertEquals(audience, senderOf.get(number).audience(), "#m" + number
                            + " steered a run of another conversation or authority (" + run.request().senderId() + "):\n"
                            + run.prompt());
                }
            }
        }
    }

    private static List<Integer> numbers(Pattern pattern, String prompt) {
        List<Integer> numbers = new ArrayList<>();
        Matcher matcher = pattern.matcher(prompt);
        while (matcher.find()) {
            numbers.add(Integer.parseInt(matcher.group(1)));
        }
        return numbers;
    }
}
