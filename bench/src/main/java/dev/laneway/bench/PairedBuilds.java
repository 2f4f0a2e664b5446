package dev.laneway.bench;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Two builds of the benchmark jar in one JVM, a class loader each, their idle-run slices
 * ({@link IdleRunCpu}) alternated A B, B A, ... with a bare-executor slice after each pair: both
 * builds meet the same moments of a noisy machine, so the median of the per-pair CPU ratios says
 * more than two separate runs (docs/decisions.md D236–D245). Build the two jars first (e.g. a
 * {@code git worktree} of the older commit, {@code scripts/mvn -Pbench -pl bench -am package -DskipTests}).
 *
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.laneway.bench.PairedBuilds OLD.jar NEW.jar [pairs=12] [n=600000]
 * </pre>
 */
public final class PairedBuilds {

    private PairedBuilds() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: PairedBuilds OLD.jar NEW.jar [pairs=12] [n=600000]");
            System.exit(2);
        }
        int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 12;
        int n = args.length > 3 ? Integer.parseInt(args[3]) : 600_000;
        Method[] run = {runOf(args[0]), runOf(args[1])};
        for (int w = 0; w < 3; w++) {
            for (Method method : run) {
                method.invoke(null, "laneway", n);
            }
        }
        run[0].invoke(null, "bare-virtual", n);
        List<Double> oldCpu = new ArrayList<>();
        List<Double> newCpu = new ArrayList<>();
        List<Double> cpuRatio = new ArrayList<>();
        List<Double> oldRatio = new ArrayList<>();
        List<Double> newRatio = new ArrayList<>();
        List<Double> bareCpu = new ArrayList<>();
        for (int p = 0; p < pairs; p++) {
            double[][] slices = new double[2][];
            for (int k = 0; k < 2; k++) {
                int which = p % 2 == 0 ? k : 1 - k;
                slices[which] = slice(run[which].invoke(null, "laneway", n));
            }
            double[] bare = slice(run[0].invoke(null, "bare-virtual", 2 * n));
            oldCpu.add(slices[0][1]);
            newCpu.add(slices[1][1]);
            cpuRatio.add(slices[1][1] / slices[0][1]);
            bareCpu.add(bare[1]);
            oldRatio.add(slices[0][0] / bare[0]);
            newRatio.add(slices[1][0] / bare[0]);
            System.out.printf("pair %d: old %.2f µs/run %,.0f/s; new %.2f µs/run %,.0f/s; new/old CPU %.3f;"
                    + " bare %.2f µs/run %,.0f/s%n", p, slices[0][1], slices[0][0], slices[1][1], slices[1][0],
                    slices[1][1] / slices[0][1], bare[1], bare[0]);
        }
        System.out.printf("medians: old %.2f µs/run, new %.2f µs/run, new/old CPU per pair %.3f, bare %.2f µs/run;"
                + " runs/s ÷ the bare executor's: old %.3f, new %.3f%n", IdleRunCpu.median(oldCpu),
                IdleRunCpu.median(newCpu), IdleRunCpu.median(cpuRatio), IdleRunCpu.median(bareCpu),
                IdleRunCpu.median(oldRatio), IdleRunCpu.median(newRatio));
        System.exit(0); // the builds' scheduler threads are daemons, but their timers may linger
    }

    /** {@code IdleRunCpu.run(String, int)} as the jar at {@code jar} has it, in a class loader of its own. */
    private static Method runOf(String jar) throws Exception {
        URLClassLoader loader = new URLClassLoader(new URL[] {Path.of(jar).toUri().toURL()},
                ClassLoader.getPlatformClassLoader());
        Method run = Class.forName(IdleRunCpu.class.getName(), true, loader).getDeclaredMethod("run", String.class,
                int.class);
        run.setAccessible(true);
        return run;
    }

    /** A slice from the other class loader's {@code IdleRunCpu.Slice}, as {runs/s, µs/run}. */
    private static double[] slice(Object result) throws Exception {
        Method rate = result.getClass().getDeclaredMethod("runsPerSecond");
        Method cpu = result.getClass().getDeclaredMethod("cpuMicrosPerRun");
        rate.setAccessible(true);
        cpu.setAccessible(true);
        return new double[] {(double) rate.invoke(result), (double) cpu.invoke(result)};
    }
}
