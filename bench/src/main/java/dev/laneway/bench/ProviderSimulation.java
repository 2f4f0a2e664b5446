package dev.laneway.bench;

import dev.laneway.agents.pool.Lease;
import dev.laneway.agents.pool.PoolObserver;
import dev.laneway.agents.pool.ProviderPool;
import dev.laneway.agents.pool.Usage;
import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.time.Scheduler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Issue 16's benchmark, in the scheduling simulation's virtual time: the real {@link ProviderPool}
 * (docs/behaviour.md §14) in front of a simulated provider ({@link SimProvider}). Every run makes one
 * model call and handles its answer as the {@code openai} agent's {@code ChatClient} does: a 429
 * pauses the pool (adaptive) or waits its own {@code Retry-After} (today's independent retries), at
 * most 2 retries; a 500 is retried after 1 s, then 2 s, then the run is unavailable.
 *
 * <ul>
 *   <li><b>(a) unknown capacity</b>: the provider takes {@code capacity} calls at once and answers
 *       429 with {@code Retry-After: 2} beyond; Laneway is told only a maximum of 64. Runs arrive
 *       (Poisson) at 1.1 × the provider's capacity for 10 min. With {@code adaptive: true} against
 *       independent per-run retries (every run calls at once and retries on its own), same loads.</li>
 *   <li><b>(b) outage</b>: interactive runs at 2 per second for 5 min; the primary answers 500 from
 *       120 s to 180 s. What the engine will do with an unavailable run (the fallback ladder, another
 *       helper's work) is modelled here: a run whose primary is unavailable (circuit open, or 500s
 *       through its retries) calls a second, healthy pool.</li>
 * </ul>
 * Left out: {@code main}'s slots and the session lanes (the pool is the bottleneck here), tools
 * (one call per run). Runs in a second or two. Usage:
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.laneway.bench.ProviderSimulation [--replications 5] [--seed 1] [--out FILE]
 * </pre>
 */
public final class ProviderSimulation {

    static final int DEFAULT_REPLICATIONS = 5;
    static final long MEDIAN_CALL_MILLIS = 1_200;
    static final double CALL_SIGMA = 0.8;
    static final long ERROR_LATENCY_MILLIS = 100;
    static final Duration RETRY_AFTER = Duration.ofSeconds(2);
    static final int MAX_RETRIES = 2;
    static final int TOLD_MAXIMUM = 64;
    static final long INTERACTIVE_BUDGET_MILLIS = 30_000;

    private ProviderSimulation() {
    }

    public static void main(String[] args) throws IOException {
        int replications = DEFAULT_REPLICATIONS;
        long seed = 1;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--replications" -> replications = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (known: --replications N, --seed S, --out FILE)");
            }
        }
        long started = System.nanoTime();
        String table = render(seed, replications);
        System.out.println(table);
        System.out.printf(Locale.ROOT, "(simulated in %.1f s of real time)%n", (System.nanoTime() - started) / 1e9);
        if (out != null) {
            Files.writeString(out, table);
            System.out.println("table written to " + out);
        }
    }

    /** Both scenarios, {@code replications} seeds each, as markdown. */
    static String render(long seed, int replications) {
        List<CapacityOutcome> adaptive = new ArrayList<>();
        List<CapacityOutcome> independent = new ArrayList<>();
        List<OutageOutcome> outages = new ArrayList<>();
        for (int r = 0; r < replications; r++) {
            adaptive.add(capacity(16, seed + r, true, 600_000));
            independent.add(capacity(16, seed + r, false, 600_000));
            outages.add(outage(seed + r));
        }
        StringBuilder md = new StringBuilder();
        md.append("(a) A provider that takes 16 calls at once (Laneway told only `maxConcurrent: 64`), 429 +"
                + " `Retry-After: 2` beyond; runs at 1.1 × its capacity for 10 min; ").append(replications)
                .append(" seeds, median (min–max):\n\n");
        md.append("| measure | adaptive pool | independent per-run retries (before) |\n|---|---:|---:|\n");
        row(md, "time until the limit settled (stays within 13–17)", adaptive, independent, o -> o.settledMillis / 1000.0, "%.0f s", true);
        row(md, "utilisation of the provider's capacity, settled to the load's end", adaptive, independent,
                o -> 100.0 * o.utilisation, "%.1f%%", false);
        row(md, "429s per 1,000 model calls, settled", adaptive, independent, o -> o.tooManyPer1000, "%.1f", false);
        row(md, "429s per 1,000 model calls, whole run", adaptive, independent, o -> o.tooManyPer1000All, "%.1f", false);
        row(md, "runs failed (HTTP 429 after 2 retries), of all", adaptive, independent, o -> 100.0 * o.failedShare,
                "%.2f%%", false);
        md.append("\n(b) The primary answers 500 from 120 s to 180 s; interactive runs at 2/s for 5 min; circuit"
                + " `{ failures: 5, window: 60s, openFor: 30s }`; an unavailable run goes to a second pool (the"
                + " fallback, modelled); ").append(replications).append(" seeds:\n\n");
        md.append("| measure | median (min–max) |\n|---|---:|\n");
        outageRow(md, "circuit opened at", outages, o -> o.openedAt / 1000.0, "%.1f s");
        outageRow(md, "circuit closed for good at (outage ends at 180 s)", outages, o -> o.closedAt / 1000.0, "%.1f s");
        outageRow(md, "probes while it was open (half-open, failed)", outages, o -> o.failedProbes, "%.0f");
        outageRow(md, "runs in the outage (arriving 120–180 s)", outages, o -> o.inOutage, "%.0f");
        outageRow(md, "… failed fast (circuit open, no call to the primary)", outages, o -> o.failedFast, "%.0f");
        outageRow(md, "… waited out 500s and retries first (before the circuit opened, or a probe)", outages,
                o -> o.waitedOut, "%.0f");
        outageRow(md, "… answered by the fallback within the interactive budget (30 s)", outages,
                o -> 100.0 * o.answeredInBudget, "%.2f%%");
        outageRow(md, "… arrival to answer p95", outages, o -> o.p95Millis / 1000.0, "%.2f s");
        return md.toString();
    }

    private interface Measure<T> {
        double of(T outcome);
    }

    private static void row(StringBuilder md, String what, List<CapacityOutcome> a, List<CapacityOutcome> b,
                            Measure<CapacityOutcome> measure, String format, boolean adaptiveOnly) {
        md.append("| ").append(what).append(" | ").append(spread(a, measure, format)).append(" | ")
                .append(adaptiveOnly ? "—" : spread(b, measure, format)).append(" |\n");
    }

    private static void outageRow(StringBuilder md, String what, List<OutageOutcome> outcomes,
                                  Measure<OutageOutcome> measure, String format) {
        md.append("| ").append(what).append(" | ").append(spread(outcomes, measure, format)).append(" |\n");
    }

    private static <T> String spread(List<T> outcomes, Measure<T> measure, String format) {
        double[] values = outcomes.stream().mapToDouble(measure::of).sorted().toArray();
        double median = values[values.length / 2];
        String m = String.format(Locale.ROOT, format, median);
        return values.length == 1 ? m : m + " (" + String.format(Locale.ROOT, format, values[0]) + "–"
                + String.format(Locale.ROOT, format, values[values.length - 1]) + ")";
    }

    // ------------------------------------------------------------------ (a) unknown capacity

    /** What one run of scenario (a) gave. */
    static final class CapacityOutcome {
        long settledMillis;
        double utilisation;
        double tooManyPer1000;
        double tooManyPer1000All;
        double failedShare;
        long runs;
        long answered;
        final List<long[]> limits = new ArrayList<>(); // {at, limit}
    }

    /**
     * Scenario (a): {@code capacity} calls at once; runs at 1.1 × capacity for {@code loadMillis}.
     *
     * @param adaptive the pool's adaptive limit with coordinated pauses; else today's per-run retries
     */
    static CapacityOutcome capacity(int capacity, long seed, boolean adaptive, long loadMillis) {
        VirtualTime time = new VirtualTime();
        SimProvider provider = new SimProvider(time, capacity, ERROR_LATENCY_MILLIS, Long.MAX_VALUE, Long.MAX_VALUE);
        CapacityOutcome outcome = new CapacityOutcome();
        List<long[]> calls = new ArrayList<>(); // {startedAt, 1 if 429}
        PoolObserver observer = new PoolObserver() {
            @Override
            public void limit(String pool, int limit) {
                outcome.limits.add(new long[] {time.now(), limit});
            }
        };
        ProviderPool pool = adaptive ? new ProviderPool(new ProviderSettings("hosted", "https://sim.invalid/v1", "k",
                "m", TOLD_MAXIMUM, 0, 0, true, ProviderSettings.Circuit.DEFAULTS), SchedulingSettings.defaults(), time,
                timers(time), observer) : null;
        double meanCall = MEDIAN_CALL_MILLIS * Math.exp(CALL_SIGMA * CALL_SIGMA / 2);
        double perSecond = 1.1 * capacity / (meanCall / 1000);
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + 16);
        List<Long> busyAt = new ArrayList<>(); // busy call-ms at each whole second
        for (long t = 0; t <= loadMillis; t += 1_000) {
            time.at(t, () -> busyAt.add(provider.busyMillis()));
        }
        long[] answered = new long[1];
        long[] failed = new long[1];
        int id = 0;
        double t = 0;
        while (true) {
            t += -StrictMath.log(1 - random.nextDouble()) * 1000 / perSecond;
            if (t >= loadMillis) {
                break;
            }
            long callMillis = Math.max(1, Math.round(MEDIAN_CALL_MILLIS * StrictMath.exp(CALL_SIGMA * random.nextGaussian())));
            Claim claim = new Claim(PriorityClass.INTERACTIVE, "user:" + (id % 50), "s" + id);
            id++;
            Runnable run = adaptive
                    ? () -> pooled(time, pool, provider, claim, callMillis, 0, false, calls, answered, failed)
                    : () -> independent(time, provider, callMillis, 0, calls, answered, failed);
            time.at((long) t, run);
        }
        outcome.runs = id;
        while (time.hasNext()) {
            time.step();
        }
        outcome.answered = answered[0];
        outcome.failedShare = (double) failed[0] / Math.max(1, id);
        outcome.settledMillis = adaptive ? settled(outcome.limits, capacity) : 0;
        long from = outcome.settledMillis;
        long window = loadMillis - from;
        int fromSecond = (int) Math.min(busyAt.size() - 1, (from + 999) / 1000);
        long busy = busyAt.getLast() - busyAt.get(fromSecond);
        long windowMillis = loadMillis - fromSecond * 1000L;
        outcome.utilisation = windowMillis <= 0 ? Double.NaN : (double) busy / ((double) capacity * windowMillis);
        long settledCalls = calls.stream().filter(c -> c[0] >= from && c[0] < loadMillis).count();
        long settledTooMany = calls.stream().filter(c -> c[0] >= from && c[0] < loadMillis && c[1] == 1).count();
        outcome.tooManyPer1000 = window <= 0 ? Double.NaN : 1000.0 * settledTooMany / Math.max(1, settledCalls);
        outcome.tooManyPer1000All = 1000.0 * calls.stream().filter(c -> c[1] == 1).count() / Math.max(1, calls.size());
        return outcome;
    }

    /** When the limit entered the band around the capacity for good (0.8 × capacity to capacity + 1). */
    static long settled(List<long[]> limits, int capacity) {
        long low = (long) Math.floor(0.8 * capacity);
        long settledAt = 0;
        boolean inBand = false;
        for (long[] change : limits) {
            boolean in = change[1] >= low && change[1] <= capacity + 1;
            if (in && !inBand) {
                settledAt = change[0];
            }
            inBand = in;
        }
        return inBand ? settledAt : Long.MAX_VALUE;
    }

    /** A run through the pool, handling answers as ChatClient does. */
    private static void pooled(VirtualTime time, ProviderPool pool, SimProvider provider, Claim claim, long callMillis,
                               int retry, boolean again, List<long[]> calls, long[] answered, long[] failed) {
        pool.lease(claim, again).whenComplete((lease, error) -> {
            if (error != null) {
                failed[0]++;
                return;
            }
            long[] call = {time.now(), 0};
            calls.add(call);
            provider.call(callMillis, answer -> {
                if (answer == SimProvider.Answer.OK) {
                    lease.succeeded(Usage.NONE);
                    lease.close();
                    answered[0]++;
                    return;
                }
                call[1] = 1;
                lease.rateLimited(RETRY_AFTER);
                lease.close();
                if (retry >= MAX_RETRIES) {
                    failed[0]++;
                } else {
                    pooled(time, pool, provider, claim, callMillis, retry + 1, true, calls, answered, failed);
                }
            });
        });
    }

    /** Today: a run calls at once and, on a 429, waits its own Retry-After and calls again. */
    private static void independent(VirtualTime time, SimProvider provider, long callMillis, int retry,
                                    List<long[]> calls, long[] answered, long[] failed) {
        long[] call = {time.now(), 0};
        calls.add(call);
        provider.call(callMillis, answer -> {
            if (answer == SimProvider.Answer.OK) {
                answered[0]++;
                return;
            }
            call[1] = 1;
            if (retry >= MAX_RETRIES) {
                failed[0]++;
            } else {
                time.at(time.now() + RETRY_AFTER.toMillis(),
                        () -> independent(time, provider, callMillis, retry + 1, calls, answered, failed));
            }
        });
    }

    // ------------------------------------------------------------------ (b) outage

    /** What one run of scenario (b) gave. */
    static final class OutageOutcome {
        long openedAt = -1;
        long closedAt = -1;
        long failedProbes;
        long inOutage;
        long failedFast;
        long waitedOut;
        double answeredInBudget;
        double p95Millis;
        final List<String> circuit = new ArrayList<>();
    }

    static final long OUTAGE_FROM = 120_000;
    static final long OUTAGE_TO = 180_000;

    /** Scenario (b): one seed. */
    static OutageOutcome outage(long seed) {
        VirtualTime time = new VirtualTime();
        OutageOutcome outcome = new OutageOutcome();
        SimProvider primary = new SimProvider(time, Integer.MAX_VALUE, 200, OUTAGE_FROM, OUTAGE_TO);
        SimProvider fallback = new SimProvider(time, Integer.MAX_VALUE, 200, Long.MAX_VALUE, Long.MAX_VALUE);
        PoolObserver observer = new PoolObserver() {
            @Override
            public void circuit(String pool, String state) {
                outcome.circuit.add(time.now() + ":" + state);
                if (state.equals("open")) {
                    if (outcome.openedAt < 0) {
                        outcome.openedAt = time.now();
                    } else {
                        outcome.failedProbes++;
                    }
                } else if (state.equals("closed")) {
                    outcome.closedAt = time.now();
                }
            }
        };
        Scheduler timers = timers(time);
        ProviderPool main = new ProviderPool(new ProviderSettings("primary", "https://primary.invalid/v1", "k", "big",
                0, 0, 0, false, ProviderSettings.Circuit.DEFAULTS), SchedulingSettings.defaults(), time, timers, observer);
        ProviderPool second = new ProviderPool(ProviderSettings.unlimited("fallback", "http://127.0.0.1:11434/v1", "",
                "small"), SchedulingSettings.defaults(), time, timers, PoolObserver.NONE);
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + 17);
        List<long[]> runs = new ArrayList<>(); // {arrival, answeredAt, failedFast, waitedOut, byFallback}
        double t = 0;
        int id = 0;
        while (true) {
            t += -StrictMath.log(1 - random.nextDouble()) * 1000 / 2.0;
            if (t >= 300_000) {
                break;
            }
            long callMillis = Math.max(1, Math.round(MEDIAN_CALL_MILLIS * StrictMath.exp(CALL_SIGMA * random.nextGaussian())));
            long[] run = {(long) t, -1, 0, 0, 0};
            runs.add(run);
            Claim claim = new Claim(PriorityClass.INTERACTIVE, "user:" + (id % 50), "s" + id);
            id++;
            time.at((long) t, () -> primary(time, main, second, primary, fallback, claim, callMillis, 0, run));
        }
        while (time.hasNext()) {
            time.step();
        }
        List<long[]> during = runs.stream().filter(r -> r[0] >= OUTAGE_FROM && r[0] < OUTAGE_TO).toList();
        outcome.inOutage = during.size();
        outcome.failedFast = during.stream().filter(r -> r[2] == 1).count();
        outcome.waitedOut = during.stream().filter(r -> r[3] == 1).count();
        outcome.answeredInBudget = (double) during.stream()
                .filter(r -> r[1] >= 0 && r[1] - r[0] <= INTERACTIVE_BUDGET_MILLIS && (r[4] == 1 || r[2] == 0 && r[3] == 0))
                .count() / Math.max(1, during.size());
        long[] delays = during.stream().mapToLong(r -> r[1] < 0 ? Long.MAX_VALUE : r[1] - r[0]).toArray();
        Arrays.sort(delays);
        outcome.p95Millis = SimStats.percentile(delays, 95);
        return outcome;
    }

    /** The primary, as ChatClient calls it: 500s retried after 1 s and 2 s, then unavailable; an open circuit at once. */
    private static void primary(VirtualTime time, ProviderPool main, ProviderPool second, SimProvider primary,
                                SimProvider fallback, Claim claim, long callMillis, int retry, long[] run) {
        main.lease(claim, retry > 0).whenComplete((lease, error) -> {
            if (error != null) { // the circuit is open: the run fails fast, and the fallback answers
                if (retry == 0) {
                    run[2] = 1;
                }
                fallback(time, second, fallback, claim, callMillis, run);
                return;
            }
            primary.call(callMillis, answer -> {
                if (answer == SimProvider.Answer.OK) {
                    lease.succeeded(Usage.NONE);
                    lease.close();
                    run[1] = time.now();
                    return;
                }
                lease.failed(false);
                lease.close();
                run[3] = 1;
                if (retry >= MAX_RETRIES) {
                    fallback(time, second, fallback, claim, callMillis, run);
                } else {
                    time.at(time.now() + (1_000L << retry),
                            () -> primary(time, main, second, primary, fallback, claim, callMillis, retry + 1, run));
                }
            });
        });
    }

    private static void fallback(VirtualTime time, ProviderPool second, SimProvider fallback, Claim claim,
                                 long callMillis, long[] run) {
        run[4] = 1;
        second.lease(claim, false).whenComplete((lease, error) -> fallback.call(callMillis, answer -> {
            lease.succeeded(Usage.NONE);
            lease.close();
            run[1] = time.now();
        }));
    }

    /** Timers on the simulation's virtual time, for the pools' pauses. */
    static Scheduler timers(VirtualTime time) {
        return (delay, task) -> {
            boolean[] cancelled = {false};
            time.at(time.now() + Math.max(0, delay.toMillis()), () -> {
                if (!cancelled[0]) {
                    task.run();
                }
            });
            return () -> cancelled[0] = true;
        };
    }
}
