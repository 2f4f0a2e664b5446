package dev.laneway.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Single-instance accept rate, Redis against SQLite in the same run (docs/architecture.md §10):
 * accepted messages per second through {@code Gateway.accept}, which returns once the message is
 * journaled durably (SQLite: WAL, {@code synchronous=FULL}, group commit; Redis: acknowledged by a
 * {@code redis-server} with {@code appendfsync always}, on the same disk), before its run. Three
 * stores: SQLite; Redis as the app wires it ({@code kind: redis} always joins a fleet: shared
 * sequence numbers, session leases, fleet-wide {@code main}); Redis without the fleet (what
 * {@link DurableAcceptBenchmark}'s {@code redis} measures). P producer threads each rotate over their
 * own share of 10,000 sessions, so a message mostly finds its session idle and starts a run, which
 * the fake model (0 ms) ends at once. Rounds alternate the stores (fresh store each trial); the table
 * gives each cell's median and the range over the rounds.
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.laneway.bench.AcceptRate [--rounds 3] [--seconds 4]
 *        [--producers 1,8,64] [--out FILE]
 * </pre>
 */
public final class AcceptRate {

    static final int SESSIONS = 10_000;

    private AcceptRate() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = 3;
        int seconds = 4;
        int[] producers = {1, 8, 64};
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--producers" -> producers = java.util.Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        FleetNode.Kind[] kinds = {FleetNode.Kind.SQLITE, FleetNode.Kind.REDIS_FLEET, FleetNode.Kind.REDIS};
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        for (FleetNode.Kind kind : kinds) { // warm-up: JIT, not reported
            trial(kind, 8, 1);
        }
        for (int round = 0; round < rounds; round++) {
            for (int p : producers) {
                for (int k = 0; k < kinds.length; k++) {
                    FleetNode.Kind kind = kinds[(k + round) % kinds.length]; // each store goes first in turn
                    double rate = trial(kind, p, seconds);
                    System.out.printf(Locale.ROOT, "# round %d, %s, %d producers: %,.0f accepted/s%n", round, kind, p, rate);
                    rates.computeIfAbsent(kind + "/" + p, x -> new ArrayList<>()).add(rate);
                }
            }
        }
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "Accept rate, one instance: msgs/s accepted (journaled durably) through"
                + " Gateway.accept, %d alternating rounds of %d s, median (range); 10,000 sessions, fake model 0 ms%n%n",
                rounds, seconds));
        table.append("| producers | SQLite (synchronous=FULL) | Redis as the app wires it (fleet of one) | Redis ÷ SQLite "
                + "| Redis, no fleet | no fleet ÷ SQLite |\n|---:|---:|---:|---:|---:|---:|\n");
        for (int p : producers) {
            double sqlite = median(rates.get(FleetNode.Kind.SQLITE + "/" + p));
            double fleet = median(rates.get(FleetNode.Kind.REDIS_FLEET + "/" + p));
            double plain = median(rates.get(FleetNode.Kind.REDIS + "/" + p));
            table.append(String.format(Locale.ROOT, "| %d | %s | %s | %.2f× | %s | %.2f× |%n", p,
                    cell(rates.get(FleetNode.Kind.SQLITE + "/" + p)), cell(rates.get(FleetNode.Kind.REDIS_FLEET + "/" + p)),
                    fleet / sqlite, cell(rates.get(FleetNode.Kind.REDIS + "/" + p)), plain / sqlite));
        }
        System.out.println(table);
        if (out != null) {
            Files.writeString(out, table.toString());
        }
    }

    /** Accepted msgs/s of {@code producers} threads for {@code seconds} after a 1 s warm-up, on a fresh store. */
    static double trial(FleetNode.Kind kind, int producers, int seconds) throws Exception {
        BenchRedis redis = kind == FleetNode.Kind.SQLITE ? null : BenchRedis.start();
        Path dir = kind == FleetNode.Kind.SQLITE ? DataDirs.create("laneway-bench-accept-") : null;
        try {
            FleetNode node = new FleetNode(kind, redis != null ? redis.url() : dir.toString(), 4, 20, Duration.ZERO, "a-");
            LongAdder accepted = new LongAdder();
            AtomicBoolean stop = new AtomicBoolean();
            int share = SESSIONS / producers;
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int first = p * share;
                threads.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; !stop.get(); i = (i + 1) % share) {
                        node.accept(first + i, "hello from " + (first + i));
                        accepted.increment();
                    }
                }));
            }
            Thread.sleep(1000);
            long a0 = accepted.sum();
            long t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            long a1 = accepted.sum();
            double elapsed = (System.nanoTime() - t0) / 1e9;
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            long refused = node.other();
            node.close(Duration.ofSeconds(10));
            if (refused > 0) {
                System.out.printf("# %s: %d messages ended other than as run (e.g. refused)%n", kind, refused);
            }
            return (a1 - a0) / elapsed;
        } finally {
            if (redis != null) {
                redis.close();
            }
            if (dir != null) {
                DataDirs.delete(dir);
            }
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String cell(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return String.format(Locale.ROOT, "%,.0f (%,.0f–%,.0f)", median(values), sorted.get(0), sorted.get(sorted.size() - 1));
    }
}
