package dev.laneway.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The 10,000-session idle-run benchmark as a plain loop, for comparing builds on a noisy machine and
 * for profiling (docs/decisions.md D236–D245): each slice runs {@code n} messages through a
 * {@link Pipeline} (after a quarter of that to settle) and reports runs per second and the process's
 * CPU time per run, which the machine's moment-to-moment speed moves less than throughput. The
 * laneway pipeline and the bare virtual-thread executor alternate, so their ratio is taken from
 * neighbouring slices. {@link PairedBuilds} runs two builds' copies of this in one JVM.
 *
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.laneway.bench.IdleRunCpu [slices=5] [n=2000000] [systems=laneway,bare-virtual]
 * </pre>
 * With one system and one slice it is also the load to profile, e.g. with
 * {@code -XX:StartFlightRecording:filename=run.jfr,settings=profile}.
 */
public final class IdleRunCpu {

    static final int SESSIONS = 10_000;

    private IdleRunCpu() {
    }

    /** One slice's result: runs per second and process CPU microseconds per run. */
    record Slice(double runsPerSecond, double cpuMicrosPerRun) {
    }

    public static void main(String[] args) throws Exception {
        int slices = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
        String[] systems = args.length > 2 ? args[2].split(",") : new String[] {"laneway", "bare-virtual"};
        for (String system : systems) { // warm up: the JIT compiles each pipeline before it counts
            run(system, n);
            run(system, n);
        }
        List<Double> ratios = new ArrayList<>();
        for (int s = 0; s < slices; s++) {
            StringBuilder line = new StringBuilder("slice " + s + ":");
            Slice[] results = new Slice[systems.length];
            for (int i = 0; i < systems.length; i++) {
                results[i] = run(systems[i], n);
                line.append(String.format(" %s %,.0f/s %.2f µs/run;", systems[i], results[i].runsPerSecond(),
                        results[i].cpuMicrosPerRun()));
            }
            if (systems.length == 2) {
                double ratio = results[0].runsPerSecond() / results[1].runsPerSecond();
                ratios.add(ratio);
                line.append(String.format(" ratio %.3f", ratio));
            }
            System.out.println(line);
        }
        if (!ratios.isEmpty()) {
            System.out.printf("median ratio %.3f%n", median(ratios));
        }
    }

    /** Runs {@code n} messages through a fresh pipeline of {@code system} at {@link #SESSIONS} sessions. */
    static Slice run(String system, int n) {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        SessionWindow window = new SessionWindow(SESSIONS);
        try (Pipeline pipeline = Pipeline.create(system, SESSIONS, window)) {
            for (int i = 0; i < n / 4; i++) {
                pipeline.accept(window.nextIdleSession());
            }
            window.awaitAllFinished();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                pipeline.accept(window.nextIdleSession());
            }
            window.awaitAllFinished();
            long t1 = System.nanoTime();
            long cpu1 = os.getProcessCpuTime();
            return new Slice(n * 1e9 / (t1 - t0), (cpu1 - cpu0) / 1e3 / n);
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
