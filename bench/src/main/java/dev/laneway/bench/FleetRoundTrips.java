package dev.laneway.bench;

import dev.laneway.store.redis.RedisStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.Jedis;

/**
 * Redis round trips per accepted message and per run (docs/architecture.md §7.1 and §10): one
 * instance wired as the app wires {@code kind: redis} ({@link FleetNode}: store, fleet membership,
 * fleet-wide {@code main}) against a throwaway {@code redis-server} ({@link BenchRedis}), the
 * round trips counted from the server's {@code MONITOR} stream ({@link RedisMonitor}), phase by
 * phase, each command labelled (a script by its name; a {@code MULTI … EXEC} group commit is one).
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.laneway.bench.FleetRoundTrips [--sessions 1000] [--out FILE]
 * </pre>
 * Phases: open and join; idle (the beat and the sweep alone); one message each into N sessions
 * nobody holds, from one producer, the runs held open (so every accept is its own group commit and
 * each run's start is counted apart from its end); a second message each while the runs are held
 * (the session's lease is held here: the queueing path); the runs released until every message is
 * recorded; idle again (the sweep gives the leases back); leaving. Then two closed loops with a
 * fake model of 200 ms: 200 sessions under the default cap of 4 (runs wait for permits) and under a
 * cap of 200 (none waits). About 90 s.
 */
public final class FleetRoundTrips {

    private record Phase(String name, RoundTripCounter.Counts counts, long messages, long runs, double seconds) { }

    private FleetRoundTrips() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = 1000;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sessions" -> sessions = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (known: --sessions N, --out FILE)");
            }
        }
        String table = measure(sessions);
        System.out.println(table);
        if (out != null) {
            Files.writeString(out, table);
        }
    }

    static String measure(int n) throws IOException, InterruptedException {
        List<Phase> phases = new ArrayList<>();
        try (BenchRedis redis = BenchRedis.start();
             Jedis control = redis.connect();
             RedisMonitor monitor = new RedisMonitor(redis.port(), RedisStore.scriptNamesBySha())) {
            monitor.exclude(control);
            String journal = "laneway:{bench}:journal";
            RoundTripCounter.Counts before = monitor.mark();
            long t0 = System.nanoTime();
            FleetNode node = new FleetNode(FleetNode.Kind.REDIS_FLEET, redis.url(), n, 20, Duration.ZERO, "rt-");
            RoundTripCounter.Counts at = monitor.mark();
            phases.add(new Phase("open + join + start", at.minus(before), 0, 0, seconds(t0)));

            before = at;
            t0 = System.nanoTime();
            Thread.sleep(10_500);
            at = monitor.mark();
            phases.add(new Phase("idle, no leases (10.5 s)", at.minus(before), 0, 0, seconds(t0)));

            node.agent.hold();
            before = at;
            t0 = System.nanoTime();
            for (int s = 0; s < n; s++) {
                node.accept(s, "hello from " + s);
            }
            long runs0 = 0;
            await("every first message's run started", () -> node.agent.starts() >= n);
            at = monitor.mark();
            phases.add(new Phase("1st message into " + n + " unheld sessions (1 producer) + run start, runs held",
                    at.minus(before), n, node.agent.starts() - runs0, seconds(t0)));

            before = at;
            t0 = System.nanoTime();
            long runs1 = node.agent.starts();
            for (int s = 0; s < n; s++) {
                node.accept(s, "again from " + s);
            }
            at = monitor.mark();
            phases.add(new Phase("2nd message into the same sessions, held here, runs still held (queued)",
                    at.minus(before), n, node.agent.starts() - runs1, seconds(t0)));

            before = at;
            t0 = System.nanoTime();
            long runs2 = node.agent.starts();
            node.agent.releaseAll();
            await("every message ran", () -> node.ran() >= 2L * n);
            await("every message recorded in Redis", () -> control.hlen(journal) == 0);
            at = monitor.mark();
            phases.add(new Phase("release: " + n + " runs end, the " + n + " queued run as followups, all recorded",
                    at.minus(before), 0, node.agent.starts() - runs2, seconds(t0)));

            before = at;
            t0 = System.nanoTime();
            Thread.sleep(10_500);
            at = monitor.mark();
            phases.add(new Phase("idle after (10.5 s: sweeps give the leases back)", at.minus(before), 0, 0, seconds(t0)));

            before = at;
            t0 = System.nanoTime();
            node.close(Duration.ofSeconds(5));
            at = monitor.mark();
            phases.add(new Phase("leave (shutdown)", at.minus(before), 0, 0, seconds(t0)));
            if (node.other() > 0) {
                throw new IllegalStateException(node.other() + " messages did not run");
            }

            phases.add(loop(redis, monitor, 4, 200));
            phases.add(loop(redis, monitor, 200, 200));
        }
        return render(phases);
    }

    /** A closed loop of {@code sessionCount} sessions for 15 s, fake model 200 ms, fleet cap {@code cap}. */
    private static Phase loop(BenchRedis redis, RedisMonitor monitor, int cap, int sessionCount)
            throws IOException, InterruptedException {
        FleetNode node = new FleetNode(FleetNode.Kind.REDIS_FLEET, redis.url(), cap, 20, Duration.ofMillis(200),
                "loop" + cap + "-");
        try {
            int[] sessions = new int[sessionCount];
            for (int i = 0; i < sessionCount; i++) {
                sessions[i] = 100_000 + cap * 1000 + i;
            }
            node.loop(sessions);
            Thread.sleep(5_000); // warm up
            RoundTripCounter.Counts before = monitor.mark();
            long ran0 = node.ran();
            long accepted0 = node.accepted();
            long runs0 = node.agent.starts();
            long t0 = System.nanoTime();
            Thread.sleep(15_000);
            RoundTripCounter.Counts at = monitor.mark();
            double secs = seconds(t0);
            long accepted = node.accepted() - accepted0;
            long runs = node.agent.starts() - runs0;
            System.out.printf(Locale.ROOT, "# loop cap %d: %d accepted, %d ran, %d runs in %.1f s%n", cap, accepted,
                    node.ran() - ran0, runs, secs);
            return new Phase("steady: " + sessionCount + " sessions, closed loop, fake model 200 ms, fleet cap " + cap
                    + " (15 s)", at.minus(before), accepted, runs, secs);
        } finally {
            node.close(Duration.ofSeconds(2));
        }
    }

    private static String render(List<Phase> phases) {
        StringBuilder table = new StringBuilder();
        table.append("Redis round trips by phase (MONITOR; one instance, `kind: redis` as the app wires it, "
                + "redis-server ").append(BenchRedis.fsync()).append(" fsync on loopback):\n\n");
        for (Phase phase : phases) {
            RoundTripCounter.Counts c = phase.counts();
            table.append("**").append(phase.name()).append("**: ").append(c.total()).append(" round trips in ")
                    .append(String.format(Locale.ROOT, "%.1f s", phase.seconds()));
            if (phase.messages() > 0) {
                table.append(String.format(Locale.ROOT, "; %.2f per accepted message (%d)", c.total() / (double) phase.messages(),
                        phase.messages()));
            }
            if (phase.runs() > 0) {
                table.append(String.format(Locale.ROOT, "; %.2f per run (%d)", c.total() / (double) phase.runs(), phase.runs()));
            }
            if (phase.messages() == 0) {
                table.append(String.format(Locale.ROOT, "; %.2f per second", c.total() / phase.seconds()));
            }
            table.append(String.format(Locale.ROOT, "; %d script calls inside", c.scriptCalls())).append("\n\n");
            table.append("| round trip | count | per msg | per run |\n|---|---:|---:|---:|\n");
            c.roundTrips().forEach((label, count) -> table.append("| ").append(label).append(" | ").append(count)
                    .append(" | ").append(per(count, phase.messages())).append(" | ").append(per(count, phase.runs()))
                    .append(" |\n"));
            if (!c.inTransactions().isEmpty()) {
                Set<String> inside = new TreeSet<>(c.inTransactions().keySet());
                table.append("| (inside the transactions: ");
                for (String label : inside) {
                    table.append(label).append(" ").append(c.inTransactions().get(label)).append("; ");
                }
                table.setLength(table.length() - 2);
                table.append(") | | | |\n");
            }
            table.append('\n');
        }
        return table.toString();
    }

    private static String per(long count, long of) {
        return of == 0 ? "" : String.format(Locale.ROOT, "%.2f", count / (double) of);
    }

    private static double seconds(long from) {
        return (System.nanoTime() - from) / 1e9;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
    }
}
