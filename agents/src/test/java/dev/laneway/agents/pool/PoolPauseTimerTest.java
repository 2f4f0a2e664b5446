package dev.laneway.agents.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A 429 pause whose timer fires before the pause's end by the pool's clock (the wall clock stepped
 * back, or the timer ran early) waits for the rest instead of leaving the pool paused with nothing
 * to wake it (docs/behaviour.md §14.3).
 */
class PoolPauseTimerTest {

    /** Timers that run only when the test says, whatever the clock says. */
    private static final class HeldTimers implements Scheduler {
        final List<Runnable> tasks = new ArrayList<>();
        final List<Duration> delays = new ArrayList<>();

        @Override
        public Cancellable schedule(Duration delay, Runnable task) {
            tasks.add(task);
            delays.add(delay);
            return Cancellable.NONE;
        }

        void runNext() {
            Runnable task = tasks.remove(0);
            delays.remove(0);
            task.run();
        }
    }

    @Test
    void aPauseTimerThatFiresEarly_rearmsForTheRest_andTheWaitingCallGoesWhenThePauseEnds() {
        ManualTime clock = new ManualTime();
        HeldTimers timers = new HeldTimers();
        ProviderSettings settings = new ProviderSettings("p", "http://127.0.0.1:1/v1", "k", "m", 1, 0, 0, false,
                ProviderSettings.Circuit.DEFAULTS);
        ProviderPool pool = new ProviderPool(settings, SchedulingSettings.defaults(), clock, timers, PoolObserver.NONE);
        Lease first = pool.lease(new Claim(PriorityClass.INTERACTIVE, "a", "s1"), false).join();
        first.rateLimited(Duration.ofSeconds(10));
        first.close();
        CompletableFuture<Lease> second = pool.lease(new Claim(PriorityClass.INTERACTIVE, "b", "s2"), false);
        assertFalse(second.isDone(), "the pool is paused for 10 s");
        assertEquals(1, timers.tasks.size());

        clock.advance(Duration.ofSeconds(4));
        timers.runNext(); // 6 s early by the pool's clock
        assertFalse(second.isDone(), "still paused");
        assertEquals(List.of(Duration.ofSeconds(6)), timers.delays, "re-armed for the rest of the pause");

        clock.advance(Duration.ofSeconds(6));
        timers.runNext();
        assertTrue(second.isDone(), "the pause is over: the waiting call goes");
        second.join().close();
    }
}
