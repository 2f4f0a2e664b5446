package dev.laneway.core.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** docs/behaviour.md §2: a wait longer than lanes.warnAfterMs logs exactly one line, with these fields. */
class LaneWaitLogTest {

    private LogCapture log;

    @BeforeEach
    void capture() {
        log = LogCapture.of(Lane.class);
    }

    @AfterEach
    void release() {
        log.close();
    }

    private List<String> warnings() {
        return log.warnings();
    }

    @Test
    void aLongWait_logsOneLine_namingTheLaneTheWaitAndHowManyWereAhead() {
        ManualTime time = new ManualTime();
        Lanes lanes = new Lanes(Map.of("main", 1), time, Duration.ofSeconds(2));
        LanePermit first = lanes.acquire("main").join();
        var second = lanes.acquire("main");
        var third = lanes.acquire("main");
        time.advance(Duration.ofMillis(2500));
        first.close();
        time.advance(Duration.ofMillis(1000));
        second.join().close();
        third.join().close();
        assertEquals(List.of("lane wait exceeded: lane=main waitedMs=2500 queuedAhead=0",
                "lane wait exceeded: lane=main waitedMs=3500 queuedAhead=1"), warnings());
    }

    @Test
    void aWaitWithinTheLimit_logsNothing() {
        ManualTime time = new ManualTime();
        Lanes lanes = new Lanes(Map.of("main", 1), time, Duration.ofSeconds(2));
        LanePermit first = lanes.acquire("main").join();
        var second = lanes.acquire("main");
        time.advance(Duration.ofMillis(2000));
        first.close();
        second.join().close();
        assertEquals(List.of(), warnings());
    }

    @Test
    void aRunWaitingForMainLongerThanWarnAfter_logsOnce_whenItStarts_namingItsClass() {
        try (LogCapture scheduler = LogCapture.of(MainScheduler.class)) {
            GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1).laneWarnAfter(Duration.ofSeconds(2)));
            h.send(h.message("holds main").senderId("other").chatId("other"));
            h.dm("waits");
            h.advance(Duration.ofSeconds(5));
            h.agent.run(0).complete();
            h.advance(Duration.ofSeconds(5));
            h.agent.run(1).complete();
            assertEquals(List.of("lane wait exceeded: lane=main waitedMs=5000 queuedAhead=0 class=interactive"),
                    scheduler.warnings());
        }
    }
}
