package dev.laneway.core.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingObserver;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Two instances' {@code main} schedulers gated by one fleet-wide cap (docs/architecture.md §7.1):
 * the cap holds across both, each keeps its own order (classes) for who gets the next fleet permit,
 * spare permits go back, and a permit freed on another instance reaches a waiting run at the next
 * retry. The fleet's semaphore here is an in-memory one; the Redis one is tested in store-redis.
 */
class FleetAllowanceTest {

    private static final Duration RETRY = Duration.ofMillis(250);

    private final ManualTime time = new ManualTime();
    private final SharedCap fleet = new SharedCap(2);

    /** The fleet's permits: a counting semaphore that remembers the most ever held at once. */
    static final class SharedCap implements FleetPermitSource {
        private final int cap;
        private int held;
        private int most;
        private boolean down;
        private final List<Permit> issued = new ArrayList<>();
        private final List<java.util.function.Consumer<Permit>> lostListeners = new ArrayList<>();

        SharedCap(int cap) {
            this.cap = cap;
        }

        @Override
        public synchronized Permit tryAcquire() {
            if (down) {
                throw new IllegalStateException("the fleet's store is unreachable");
            }
            if (held >= cap) {
                return null;
            }
            held++;
            most = Math.max(most, held);
            boolean[] released = {false};
            Permit permit = () -> {
                synchronized (SharedCap.this) {
                    if (!released[0]) {
                        released[0] = true;
                        held--;
                    }
                }
            };
            issued.add(permit);
            return permit;
        }

        @Override
        public synchronized void onLost(java.util.function.Consumer<Permit> listener) {
            lostListeners.add(listener);
        }

        /** The fleet's store expired the {@code n}th permit ever issued (its instance did not renew it in time). */
        synchronized Permit expire(int n) {
            held--;
            return issued.get(n);
        }

        /** The holder's next renewal finds {@code permit} gone. */
        void reportLost(Permit permit) {
            List<java.util.function.Consumer<Permit>> listeners;
            synchronized (this) {
                listeners = List.copyOf(lostListeners);
            }
            listeners.forEach(listener -> listener.accept(permit)); // each instance knows only its own
        }

        synchronized int held() {
            return held;
        }

        synchronized int most() {
            return most;
        }

        synchronized void down(boolean down) {
            this.down = down;
        }
    }

    private MainScheduler gated(int localCap) {
        MainScheduler main = new MainScheduler(SchedulingSettings.defaults(), localCap, time, Duration.ofMinutes(10),
                SchedulingObserver.NONE);
        FleetAllowance.gate(main, fleet, Runnable::run, time, RETRY);
        return main;
    }

    private static CompletableFuture<LanePermit> ask(MainScheduler main, PriorityClass priority, String session) {
        LanePermit now = main.acquireIfFree(new Claim(priority, "t-" + session, session));
        return now != null ? CompletableFuture.completedFuture(now) : main.acquire(new Claim(priority, "t-" + session, session));
    }

    @Test
    void theFleetCapHoldsAcrossInstances_andAFreedPermitReachesAWaitingRunAtTheNextRetry() {
        MainScheduler a = gated(4);
        MainScheduler b = gated(4);
        CompletableFuture<LanePermit> a1 = ask(a, PriorityClass.NORMAL, "a1");
        CompletableFuture<LanePermit> a2 = ask(a, PriorityClass.NORMAL, "a2");
        CompletableFuture<LanePermit> b1 = ask(b, PriorityClass.NORMAL, "b1");
        assertTrue(a1.isDone() && a2.isDone(), "the fleet's two permits went to A's runs");
        assertFalse(b1.isDone(), "B's run waits although B's own cap has room");
        assertEquals(2, fleet.held());

        a1.join().close(); // A's run ends: its permit goes back to the fleet (A has nobody waiting)
        assertEquals(1, fleet.held());
        assertFalse(b1.isDone(), "B is not told: it asks again at its next retry");
        time.advance(RETRY);
        assertTrue(b1.isDone());
        assertEquals(2, fleet.most(), "never more than the fleet's cap at once");
        assertEquals(1, b.allowance());
    }

    @Test
    void eachInstanceKeepsItsOwnOrder_forWhoGetsTheNextFleetPermit() {
        MainScheduler a = gated(4);
        MainScheduler b = gated(4);
        LanePermit held1 = ask(b, PriorityClass.NORMAL, "x1").join();
        ask(b, PriorityClass.NORMAL, "x2").join(); // the fleet is full
        List<String> order = new ArrayList<>();
        ask(a, PriorityClass.BACKGROUND, "job").thenRun(() -> order.add("job"));
        ask(a, PriorityClass.NORMAL, "group").thenRun(() -> order.add("group"));
        ask(a, PriorityClass.INTERACTIVE, "dm").thenRun(() -> order.add("dm"));

        held1.close();
        time.advance(RETRY);
        assertEquals(List.of("dm"), order, "A's interactive run first, as A's scheduler orders them");
    }

    @Test
    void aPermitTakenWhileRedisIsUnreachable_isAskedForAgainAtEachRetry() {
        MainScheduler a = gated(4);
        fleet.down(true);
        CompletableFuture<LanePermit> run = ask(a, PriorityClass.NORMAL, "a1");
        assertFalse(run.isDone());
        time.advance(RETRY);
        assertFalse(run.isDone());
        fleet.down(false);
        time.advance(RETRY);
        assertTrue(run.isDone());
        assertNull(a.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "a2")), "no spare allowance was taken");
    }

    @Test
    void sparePermitsGoBack_andTheLocalCapStillHolds() {
        MainScheduler a = gated(1);
        CompletableFuture<LanePermit> first = ask(a, PriorityClass.NORMAL, "a1");
        CompletableFuture<LanePermit> second = ask(a, PriorityClass.NORMAL, "a2");
        assertTrue(first.isDone());
        assertFalse(second.isDone(), "A's own cap of 1");
        assertEquals(1, fleet.held(), "no permit taken for a run the local cap holds back");
        first.join().close();
        assertTrue(second.isDone(), "handed over locally, on the same fleet permit");
        assertEquals(1, fleet.held());
        second.join().close();
        assertEquals(0, fleet.held(), "nothing runs or waits: the permit went back");
        assertEquals(0, a.allowance());
    }

    @Test
    void aPermitThatExpiredBeforeItsRenewal_isNoLongerCounted_soTheInstanceGrantsOneRunFewer() {
        MainScheduler a = gated(4);
        MainScheduler b = gated(4);
        CompletableFuture<LanePermit> a1 = ask(a, PriorityClass.NORMAL, "a1");
        CompletableFuture<LanePermit> a2 = ask(a, PriorityClass.NORMAL, "a2");
        assertTrue(a1.isDone() && a2.isDone());

        FleetPermitSource.Permit expired = fleet.expire(0); // A could not renew it in time: the fleet counts it no more
        CompletableFuture<LanePermit> b1 = ask(b, PriorityClass.NORMAL, "b1");
        assertTrue(b1.isDone(), "B took the freed permit (a1 still runs: the fleet is over its cap for that run only)");
        fleet.reportLost(expired); // A's renewal finds it gone
        assertEquals(1, a.allowance(), "A no longer counts the lost permit (and the fleet has none to give it)");

        CompletableFuture<LanePermit> a3 = ask(a, PriorityClass.NORMAL, "a3");
        a1.join().close(); // the run whose permit was lost ends: its slot must not go to a3
        assertFalse(a3.isDone(), "A holds one permit (a2's): a3 waits for the fleet");
        assertEquals(2, fleet.held());

        b1.join().close();
        time.advance(RETRY);
        assertTrue(a3.isDone(), "a freed permit reaches a3 at the next retry");
        assertEquals(2, a.allowance());
        assertEquals(2, fleet.held());
    }

    @Test
    void aPausedScheduler_holdsNoFleetPermitForItsWaitingRuns_andTakesThemAgainWhenItResumes() {
        MainScheduler pool = gated(4); // a provider pool's scheduler, paused by a 429 (docs/behaviour.md §14.3)
        LanePermit calling = ask(pool, PriorityClass.NORMAL, "a1").join();
        pool.pauseUntil(time.instant().plusSeconds(5));
        CompletableFuture<LanePermit> waiting = ask(pool, PriorityClass.NORMAL, "a2");
        assertEquals(1, fleet.held(), "the call in flight keeps its permit; none is taken for the paused wait");
        calling.close();
        assertEquals(0, fleet.held(), "paused: the freed permit goes back to the fleet");
        time.advance(Duration.ofSeconds(5));
        pool.resume();
        assertTrue(waiting.isDone(), "resumed: the waiting call takes a permit again");
        assertEquals(1, fleet.held());
    }
}
