package dev.laneway.agents.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
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
import net.jqwik.api.constraints.IntRange;

/**
 * A provider pool's permits under random interleavings of model calls and their endings
 * (docs/behaviour.md §14): a call is let out only while fewer than the pool's current limit are out
 * (the adaptive limit moves under it), never during a pause; and every permit comes back exactly once
 * on every path: an answer, a 429, a failure, a call that reports nothing (a 400), an abort or an
 * interrupt while waiting (the request withdrawn, also racing its grant), and a shutdown that
 * withdraws and closes everything. At the end nothing is held or waiting.
 */
class PoolPermitsPropertiesTest {

    sealed interface Op permits Ask, End, Withdraw, Advance { }

    record Ask(PriorityClass priority, int tenant, boolean again) implements Op { }

    /** How a call ends: 0 answer, 1 429, 2 5xx, 3 timeout, 4 nothing reported (a 400), closed once or twice. */
    record End(int index, int how, boolean closeTwice) implements Op { }

    /** An abort or an interrupt: the run withdraws its request, whether or not it was granted meanwhile. */
    record Withdraw(int index) implements Op { }

    record Advance(long millis) implements Op { }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> ask = Combinators.combine(Arbitraries.of(PriorityClass.class), Arbitraries.integers().between(0, 3),
                Arbitraries.of(false, false, true)).as(Ask::new);
        Arbitrary<Op> end = Combinators.combine(Arbitraries.integers().between(0, 40), Arbitraries.integers().between(0, 4),
                Arbitraries.of(false, true)).as(End::new);
        Arbitrary<Op> withdraw = Arbitraries.integers().between(0, 40).map(Withdraw::new);
        Arbitrary<Op> advance = Arbitraries.longs().between(0, 20_000).map(Advance::new);
        return Arbitraries.frequencyOf(Tuple.of(6, ask), Tuple.of(5, end), Tuple.of(2, withdraw), Tuple.of(2, advance))
                .list().ofMaxSize(150);
    }

    @Property(tries = 300)
    void callsKeepToTheLimit_andEveryPermitComesBackExactlyOnce(@ForAll("ops") List<Op> ops,
                                                                 @ForAll @IntRange(min = 1, max = 5) int max,
                                                                 @ForAll boolean adaptive,
                                                                 @ForAll @IntRange(min = 0, max = 4) int failures) {
        ManualTime time = new ManualTime();
        ProviderSettings settings = new ProviderSettings("p", "http://127.0.0.1:1/v1", "k", "m", max, 0, 0, adaptive,
                new ProviderSettings.Circuit(failures, Duration.ofSeconds(30), Duration.ofSeconds(10)));
        ProviderPool pool = new ProviderPool(settings, SchedulingSettings.defaults(), time, time, PoolObserver.NONE);
        List<CompletableFuture<Lease>> asked = new ArrayList<>();
        List<Lease> closed = new ArrayList<>();
        int session = 0;
        for (Op op : ops) {
            int runningBefore = pool.snapshot().running();
            switch (op) {
                case Ask a -> asked.add(pool.lease(new Claim(a.priority(), "t" + a.tenant(), "s" + session++), a.again()));
                case End e -> {
                    List<Lease> open = open(asked, closed);
                    if (!open.isEmpty()) {
                        Lease lease = open.get(e.index() % open.size());
                        switch (e.how()) {
                            case 0 -> lease.succeeded(new Usage(10, 5));
                            case 1 -> lease.rateLimited(Duration.ofMillis(1_000 + e.index() * 100L));
                            case 2 -> lease.failed(false);
                            case 3 -> lease.failed(true);
                            default -> { } // nothing to report: close() ends it as neither
                        }
                        lease.succeeded(Usage.NONE); // a second report is ignored
                        closed.add(lease);
                        lease.close();
                        if (e.closeTwice()) {
                            lease.close();
                        }
                    }
                }
                case Withdraw w -> {
                    if (!asked.isEmpty()) {
                        CompletableFuture<Lease> request = asked.get(w.index() % asked.size());
                        if (withdraw(request)) {
                            closed.add(request.join());
                        }
                    }
                }
                case Advance a -> time.advanceMillis(a.millis());
            }
            PoolSnapshot snapshot = pool.snapshot();
            int open = open(asked, closed).size();
            long waiting = asked.stream().filter(f -> !f.isDone()).count();
            assertEquals(open, snapshot.running(), "permits held match the leases not closed, after " + op);
            assertEquals(waiting, snapshot.waiting(), "requests waiting, after " + op);
            if (snapshot.running() > runningBefore) {
                assertTrue(snapshot.running() <= snapshot.limit(), "let out " + snapshot.running()
                        + " calls above the limit " + snapshot.limit() + " after " + op);
                assertTrue(snapshot.pausedUntil().isEmpty(), "let a call out during a pause, after " + op);
            }
        }
        // shutdown: every request withdrawn, every lease closed; then nothing is held or waiting
        for (CompletableFuture<Lease> request : asked) {
            if (withdraw(request)) {
                closed.add(request.join());
            }
        }
        open(asked, closed).forEach(lease -> {
            closed.add(lease);
            lease.close();
        });
        time.advance(Duration.ofMinutes(5));
        assertEquals(0, pool.snapshot().running());
        assertEquals(0, pool.snapshot().waiting());
    }

    /**
     * What a run does on an abort or an interrupt: cancel the request; if it was granted meanwhile,
     * close the lease. Returns whether it closed one (the test then counts it closed).
     */
    private static boolean withdraw(CompletableFuture<Lease> request) {
        if (request.cancel(false) || request.isCompletedExceptionally()) {
            return false;
        }
        Lease lease = request.join();
        boolean wasOpen = !lease.isClosed();
        lease.close();
        return wasOpen;
    }

    private static List<Lease> open(List<CompletableFuture<Lease>> asked, List<Lease> closed) {
        return asked.stream().filter(f -> f.isDone() && !f.isCompletedExceptionally()).map(CompletableFuture::join)
                .filter(lease -> closed.stream().noneMatch(c -> c == lease)).toList();
    }
}
