package dev.laneway.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/**
 * Redis memory per queued message (docs/architecture.md §7.1 and §10): one instance on
 * {@code kind: redis} ({@link FleetNode}), {@code sessions} sessions each with one run held open
 * (the slow run) and {@code perSession} messages queued behind it (collect mode), every message
 * with a platform id (so the pending-keys index has it too). {@code used_memory} before and after,
 * per message; then the same with a longer text, so the text's share shows. Also each key's
 * {@code MEMORY USAGE}, which says where the bytes are.
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.laneway.bench.RedisMemory [--sessions 100] [--per-session 100] [--out FILE]
 * </pre>
 */
public final class RedisMemory {

    private RedisMemory() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = 100;
        int perSession = 100;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sessions" -> sessions = Integer.parseInt(args[++i]);
                case "--per-session" -> perSession = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "Redis memory per queued message: %d sessions, a run held open in each, %d"
                + " messages queued behind each (collect), platform ids; used_memory before and after%n%n", sessions,
                perSession));
        table.append("| text of each message | queued | used_memory added | per queued message | journal entry JSON (HSTRLEN) "
                + "| per message by key (MEMORY USAGE): journal, pending, pending-keys, session-pending |\n"
                + "|---|---:|---:|---:|---:|---|\n");
        table.append(row(sessions, perSession, "hello from <n> (" + "hello from 12345".length() + " chars)", null));
        table.append(row(sessions, perSession, "500 chars", "x".repeat(500)));
        System.out.println(table);
        if (out != null) {
            Files.writeString(out, table.toString());
        }
    }

    private static String row(int sessions, int perSession, String label, String text) throws Exception {
        try (BenchRedis redis = BenchRedis.start(); Jedis control = redis.connect()) {
            FleetNode node = new FleetNode(FleetNode.Kind.REDIS_FLEET, redis.url(), sessions, perSession + 10,
                    Duration.ZERO, "mem-");
            try {
                node.agent.hold();
                for (int s = 0; s < sessions; s++) {
                    node.accept(s, "start " + s);
                }
                while (node.agent.starts() < sessions) {
                    Thread.sleep(5);
                }
                node.store.flush();
                Thread.sleep(500);
                long before = RedisInfo.usedMemory(control);
                String[] keys = {"laneway:{bench}:journal", "laneway:{bench}:pending", "laneway:{bench}:pending-keys"};
                long[] keysBefore = usage(control, keys);
                long sessionBefore = sessionIndexes(control);
                ExecutorService producers = Executors.newFixedThreadPool(16);
                List<Future<?>> done = new ArrayList<>();
                for (int p = 0; p < 16; p++) {
                    int producer = p;
                    done.add(producers.submit(() -> {
                        for (int s = producer; s < sessions; s += 16) {
                            for (int m = 0; m < perSession; m++) {
                                node.accept(s, text == null ? "hello from " + (s * perSession + m) : text);
                            }
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
                producers.shutdown();
                producers.awaitTermination(1, TimeUnit.MINUTES);
                node.store.flush();
                Thread.sleep(500);
                long queued = control.hlen(keys[0]) - sessions;
                long after = RedisInfo.usedMemory(control);
                long[] keysAfter = usage(control, keys);
                long sessionAfter = sessionIndexes(control);
                String field = control.hkeys(keys[0]).stream().max(java.util.Comparator.comparingLong(Long::parseLong)).orElseThrow();
                long json = control.hstrlen(keys[0], field);
                if (node.other() > 0) {
                    throw new IllegalStateException(node.other() + " messages were refused or dropped");
                }
                return String.format(Locale.ROOT, "| %s | %,d | %,d B | **%,.0f B** | %d B | %.0f, %.0f, %.0f, %.0f B |%n", label, queued,
                        after - before, (after - before) / (double) queued, json,
                        (keysAfter[0] - keysBefore[0]) / (double) queued, (keysAfter[1] - keysBefore[1]) / (double) queued,
                        (keysAfter[2] - keysBefore[2]) / (double) queued, (sessionAfter - sessionBefore) / (double) queued);
            } finally {
                node.close(Duration.ZERO);
            }
        }
    }

    private static long[] usage(Jedis jedis, String[] keys) {
        long[] bytes = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            Long used = jedis.memoryUsage(keys[i], 0);
            bytes[i] = used == null ? 0 : used;
        }
        return bytes;
    }

    /** MEMORY USAGE of every session's pending index, summed. */
    private static long sessionIndexes(Jedis jedis) {
        long sum = 0;
        for (String key : jedis.keys("laneway:{bench}:session-pending:*")) {
            Long used = jedis.memoryUsage(key, 0);
            sum += used == null ? 0 : used;
        }
        return sum;
    }
}
