package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ScriptedAgent.ScriptedRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random interleavings of messages (three sessions, every mode), run completions and failures,
 * /stop and timer ticks. After every step: at most one active run per session and never more
 * than the main cap; at the end: runs of a session started in arrival order and every message
 * ended in exactly one disposition.
 */
class QueueInvariantsPropertyTest {

    private static final int MAIN_CAP = 2;
    private static final Pattern NUMBER = Pattern.compile("#m(\\d+)#");

    @Property(tries = 300)
    void queueInvariantsHoldUnderRandomInterleavings(
            @ForAll @Size(min = 1, max = 80) List<@IntRange(min = 0, max = 1_000_000) Integer> ops,
            @ForAll boolean steerable, @ForAll boolean abortIsSlow) {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(MAIN_CAP).maxPendingRuns(25)
                .queueDefaults(new QueueSettings(QueueMode.COLLECT, Duration.ofMillis(500), 3, DropPolicy.SUMMARIZE)));
        h.agent.steerable(steerable).completesOnAbort(!abortIsSlow);
        List<String> sentIds = new ArrayList<>();
        int counter = 0;
        for (int v : ops) {
            int op = v % 10;
            int a = (v / 10) % 3;
            if (op <= 4) {
                QueueMode mode = QueueMode.values()[(v / 30) % QueueMode.values().length];
                DropPolicy drop = DropPolicy.values()[(v / 150) % DropPolicy.values().length];
                h.gateway.setSessionOverride(session(a), new QueueOverride(mode, null, null, drop));
                sentIds.add(h.send(h.message("#m" + (++counter) + "#").senderId("u" + a).chatId("c" + a)));
            } else if (op <= 6) {
                finishOldestOpenRun(h, a);
            } else if (op <= 8) {
                h.advanceMillis((v / 10) % 3000);
            } else {
                h.gateway.stop(session(a));
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
        assertRunsStartInArrivalOrder(h);
    }

    private static SessionKey session(int index) {
        return SessionKey.of("test:dm:u" + index);
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

    private static void assertRunsStartInArrivalOrder(GatewayHarness h) {
        Map<String, Integer> lastFirst = new HashMap<>();
        for (ScriptedRun run : h.agent.runs()) {
            if (run.request().attempt() > 1) {
                continue;
            }
            Matcher matcher = NUMBER.matcher(run.prompt());
            int first = Integer.MAX_VALUE;
            while (matcher.find()) {
                first = Math.min(first, Integer.parseInt(matcher.group(1)));
            }
            String session = run.request().session().value();
            Integer previous = lastFirst.put(session, first);
            if (previous != null) {
                assertTrue(first > previous, "run of " + session + " with #m" + first + " started after one with #m" + previous);
            }
        }
    }
}
