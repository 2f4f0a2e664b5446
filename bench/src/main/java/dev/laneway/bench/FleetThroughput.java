package dev.laneway.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/**
 * Fleet throughput with 1, 2 and 3 instances against one throwaway {@code redis-server}
 * (docs/architecture.md §10): each instance is a process of its own ({@link FleetInstance}: its own
 * JVM, heap, JIT and GC, as in production; on a 2-core machine in-process instances would share one
 * JVM's threads and hide what a process costs), with a fake model of fixed latency and a closed loop
 * over a fixed number of sessions split among them; {@code main}'s cap is fleet-wide, so the fleet
 * can never run more than cap ÷ latency messages per second. Per trial a fresh server; warm-up, then
 * every instance measures the same window. Reports messages/s, each process's CPU (the instances'
 * own, Redis's from {@code INFO cpu}) and the machine's busy CPU from {@code /proc/stat}.
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.laneway.bench.FleetThroughput [--instances 1,2,3]
 *        [--sessions 2000] [--latency-ms 200] [--cap 8] [--warmup 10] [--measure 20] [--rounds 1] [--out FILE]
 * </pre>
 */
public final class FleetThroughput {

    private FleetThroughput() {
    }

    record Trial(int instances, double msgsPerSecond, double instanceCores, double redisCores, double machineBusyCores,
                 double commandsPerSecond, long other, String perInstance) { }

    public static void main(String[] args) throws Exception {
        int[] counts = {1, 2, 3};
        int sessions = 2000;
        int latencyMs = 200;
        int cap = 8;
        int warmup = 10;
        int measure = 20;
        int rounds = 1;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--instances" -> counts = java.util.Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--sessions" -> sessions = Integer.parseInt(args[++i]);
                case "--latency-ms" -> latencyMs = Integer.parseInt(args[++i]);
                case "--cap" -> cap = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--measure" -> measure = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "Fleet throughput: %d sessions in a closed loop, fake model %d ms, fleet cap %d"
                + " (bound: cap ÷ latency = %.0f msgs/s), redis-server appendfsync %s; %d s warm-up, %d s measured%n%n",
                sessions, latencyMs, cap, cap * 1000.0 / latencyMs, BenchRedis.fsync(), warmup, measure));
        table.append("| instances | msgs/s | ÷ 1 instance | instances' CPU (cores) | Redis CPU (cores) | machine busy (of 2 cores) "
                + "| Redis commands/s | per instance: msgs/s, CPU ms per msg, leases, permits |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|---|\n");
        Map<Integer, List<Double>> rates = new HashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (int k : counts) {
                Trial trial = trial(k, sessions, latencyMs, cap, warmup, measure);
                rates.computeIfAbsent(k, x -> new ArrayList<>()).add(trial.msgsPerSecond());
                double base = rates.getOrDefault(counts[0], List.of(trial.msgsPerSecond())).get(
                        Math.min(round, rates.getOrDefault(counts[0], List.of(0.0)).size() - 1));
                String line = String.format(Locale.ROOT, "| %d | %,.0f | %.2f× | %.2f | %.2f | %.2f | %,.0f | %s |%n", k,
                        trial.msgsPerSecond(), trial.msgsPerSecond() / base, trial.instanceCores(), trial.redisCores(),
                        trial.machineBusyCores(), trial.commandsPerSecond(), trial.perInstance());
                System.out.print("# " + line);
                table.append(line);
                if (trial.other() > 0) {
                    table.append("(").append(trial.other()).append(" messages ended other than as run)\n");
                }
            }
        }
        System.out.println();
        System.out.println(table);
        if (out != null) {
            Files.writeString(out, table.toString());
        }
    }

    static Trial trial(int k, int sessions, int latencyMs, int cap, int warmup, int measure)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String classpath = System.getProperty("java.class.path");
        List<Process> processes = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        try (BenchRedis redis = BenchRedis.start(); Jedis control = redis.connect()) {
            for (int i = 0; i < k; i++) {
                Process p = new ProcessBuilder(java, "-Xms256m", "-Xmx1g", "-cp", classpath,
                        FleetInstance.class.getName(), redis.url(), Integer.toString(i), Integer.toString(k),
                        Integer.toString(sessions), Integer.toString(latencyMs), Integer.toString(cap),
                        Integer.toString(warmup), Integer.toString(measure))
                        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
                processes.add(p);
                outputs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (BufferedReader output : outputs) {
                String ready = output.readLine();
                if (ready == null || !ready.startsWith("READY")) {
                    throw new IllegalStateException("an instance did not start: " + ready);
                }
            }
            for (Process p : processes) {
                Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
                w.write("GO\n");
                w.flush();
            }
            Thread.sleep(warmup * 1000L);
            double redisCpu0 = RedisInfo.cpuSeconds(control);
            long commands0 = RedisInfo.commandsProcessed(control);
            long[] machine0 = machineTicks();
            long t0 = System.nanoTime();
            Thread.sleep(measure * 1000L);
            double redisCpu = RedisInfo.cpuSeconds(control) - redisCpu0;
            long commands = RedisInfo.commandsProcessed(control) - commands0;
            long[] machine1 = machineTicks();
            double seconds = (System.nanoTime() - t0) / 1e9;
            double total = 0;
            double cpu = 0;
            long other = 0;
            StringBuilder per = new StringBuilder();
            for (BufferedReader output : outputs) {
                Map<String, String> result = result(output);
                double ran = Double.parseDouble(result.get("ran"));
                double instanceSeconds = Double.parseDouble(result.get("seconds"));
                double instanceCpu = Double.parseDouble(result.get("cpu"));
                total += ran / instanceSeconds;
                cpu += instanceCpu / instanceSeconds;
                other += Long.parseLong(result.get("other"));
                per.append(String.format(Locale.ROOT, "%,.0f, %.2f ms, %s, %s; ", ran / instanceSeconds,
                        ran == 0 ? 0 : 1000 * instanceCpu / ran, result.get("leases"), result.get("permits")));
            }
            per.setLength(Math.max(0, per.length() - 2));
            double busy = machine1[0] - machine0[0];
            double all = machine1[1] - machine0[1];
            double cores = Runtime.getRuntime().availableProcessors();
            return new Trial(k, total, cpu, redisCpu / seconds, all == 0 ? Double.NaN : cores * busy / all,
                    commands / seconds, other, per.toString());
        } finally {
            for (Process p : processes) {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    private static Map<String, String> result(BufferedReader output) throws IOException {
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith("RESULT ")) {
                Map<String, String> fields = new HashMap<>();
                for (String field : line.substring("RESULT ".length()).split(" ")) {
                    int eq = field.indexOf('=');
                    fields.put(field.substring(0, eq), field.substring(eq + 1));
                }
                return fields;
            }
        }
        throw new IllegalStateException("an instance ended without a RESULT line");
    }

    /** The machine's busy and total CPU ticks ({@code /proc/stat}'s first line; busy = total - idle - iowait). */
    private static long[] machineTicks() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < f.length; i++) {
            total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
        return new long[] {total - idle, total};
    }
}
