package dev.laneway.core.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The scheduler as a provider pool uses it (docs/behaviour.md §12): a cap that changes, pauses until
 * an instant, and runs asking again at the head of their class, under random interleavings. A slot
 * is granted only while fewer than the current cap are held (a lower cap takes nothing back); nothing
 * is granted during a pause; every permit gives its slot back exactly once; and once the load stops,
 * everything that waits is served.
 */
class SchedulerCapAndPausePropertiesTest {

    sealed interface Op permits Arrive, Finish, Cancel, Advance, SetCap, Pause { }

    record Arrive(PriorityClass priority, int tenant, boolean first) implements Op { }

    record Finish(int index) implements Op { }

    record Cancel(int index) implements Op { }

    record Advance(long millis) implements Op { }

    record SetCap(int cap) implements Op { }

    record Pause(long millis) implements Op { }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> arrive = Combinators.combine(Arbitraries.of(PriorityClass.class),
                Arbitraries.integers().between(0, 3), Arbitraries.of(false, false, true)).as(Arrive::new);
        Arbitrary<Op> finish = Arbitraries.integers().between(0, 50).map(Finish::new);
        Arbitrary<Op> cancel = Arbitraries.integers().between(0, 50).map(Cancel::new);
        Arbitrary<Op> advance = Arbitraries.longs().between(0, 5_000).map(Advance::new);
        Arbitrary<Op> setCap = Arbitraries.integers().between(1, 6).map(SetCap::new);
        Arbitrary<Op> pause = Arbitraries.longs().between(1, 8_000).map(Pause::new);
        return Arbitraries.frequencyOf(Tuple.of(6, arrive), Tuple.of(4, finish), Tuple.of(1, cancel),
                Tuple.of(2, advance), Tuple.of(2, setCap), Tuple.of(1, pause)).list().ofMaxSize(200);
    }

    @Property(tries = 300)
    void grantsKeepToTheCurrentCapAndPauses_andEveryPermitIsGivenBackOnce(@ForAll("ops") List<Op> ops) {
        ManualTime time = new ManualTime();
        MainScheduler pool = new MainScheduler("provider:test", SchedulingSettings.defaults(), 3, time,
                Duration.ofHours(1), SchedulingObserver.NONE);
        List<CompletableFuture<LanePermit>> requests = new ArrayList<>();
        List<LanePermit> closed = new ArrayList<>();
        int session = 0;
        for (Op op : ops) {
            long doneBefore = requests.stream().filter(CompletableFuture::isDone).count();
            switch (op) {
                case Arrive arrive -> {
                    Claim claim = new Claim(arrive.priority(), "t" + arrive.tenant(), "s" + session++);
                    LanePermit now = arrive.first() ? null : pool.acquireIfFree(claim);
                    requests.add(now != null ? CompletableFuture.completedFuture(now)
                            : arrive.first() ? pool.acquireFirst(claim) : pool.acquire(claim));
                }
                case Finish finish -> {
                    List<LanePermit> holding = holding(requests, closed);
                    if (!holding.isEmpty()) {
                        LanePermit permit = holding.get(finish.index() % holding.size());
                        closed.add(permit);
                        permit.close();
                        permit.close(); // a second close gives nothing back
                    }
                }
                case Cancel cancel -> {
                    List<CompletableFuture<LanePermit>> waiting = requests.stream().filter(r -> !r.isDone()).toList();
                    if (!waiting.isEmpty()) {
                        waiting.get(cancel.index() % waiting.size()).cancel(false);
                    }
                }
                case Advance advance -> time.advanceMillis(advance.millis());
                case SetCap setCap -> pool.setCap(setCap.cap());
                case Pause pause -> {
                    // what a pool does on a 429: pause, and resume at the pause's end on a timer
                    Duration delay = Duration.ofMillis(pause.millis());
                    if (pool.pauseUntil(time.instant().plus(delay))) {
                        time.schedule(delay, pool::resume);
                    }
                }
            }
            long granted = requests.stream().filter(CompletableFuture::isDone).count() - doneBefore
                    - (op instanceof Cancel ? 1 : 0);
            SchedulerSnapshot snapshot = pool.snapshot();
            long held = holding(requests, closed).size();
            long waiting = requests.stream().filter(r -> !r.isDone()).count();
            assertEquals(held, snapshot.running(), "slots held match the permits not closed");
            assertEquals(waiting, snapshot.waiting());
            assertEquals(held, pool.laneSnapshot().active());
            if (granted > 0) {
                assertTrue(snapshot.running() <= snapshot.cap(), "granted up to " + snapshot.running()
                        + " slots, above the cap " + snapshot.cap() + " after " + op);
                assertTrue(pool.pausedUntil().isEmpty(), "granted during a pause after " + op);
            }
        }
        // the load stops: time passes every pause, runs end one by one, everyone waiting is served
        time.advance(Duration.ofSeconds(10));
        for (int guard = 0; guard < 10_000; guard++) {
            List<LanePermit> holding = holding(requests, closed);
            if (holding.isEmpty()) {
                break;
            }
            closed.add(holding.getFirst());
            holding.getFirst().close();
        }
        assertTrue(requests.stream().allMatch(CompletableFuture::isDone), "a request was never served");
        assertEquals(0, pool.snapshot().running());
        assertEquals(0, pool.snapshot().waiting());
    }

    private static List<LanePermit> holding(List<CompletableFuture<LanePermit>> requests, List<LanePermit> closed) {
        return requests.stream().filter(r -> r.isDone() && !r.isCancelled()).map(CompletableFuture::join)
                .filter(p -> closed.stream().noneMatch(c -> c == p)).toList();
    }
}
