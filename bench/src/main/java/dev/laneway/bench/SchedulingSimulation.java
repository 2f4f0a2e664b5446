package dev.laneway.bench;

import dev.laneway.core.scheduling.SchedulingSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 15's benchmark: {@code main} when the model is the bottleneck, simulated in virtual time
 * ({@link SimScenario#issue15()}, {@link SimRun}) through the real {@code MainScheduler} in fair and
 * in fifo mode, the same loads for both; prints a markdown table (docs/behaviour.md §11). Runs in a
 * few seconds. Usage:
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.laneway.bench.SchedulingSimulation [--replications 20] [--seed 1]
 *       [--flood-factor 10] [--out FILE]
 * </pre>
 * {@link BenchMain} runs it too, after the JMH benchmarks.
 */
public final class SchedulingSimulation {

    static final int DEFAULT_REPLICATIONS = 20;

    private SchedulingSimulation() {
    }

    public static void main(String[] args) throws IOException {
        int replications = DEFAULT_REPLICATIONS;
        long seed = 1;
        Path out = null;
        SimScenario scenario = SimScenario.issue15();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--replications" -> replications = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--flood-factor" -> scenario = scenario.withFloodFactor(Double.parseDouble(args[++i]));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (known: --replications N, --seed S, --flood-factor X, --out FILE)");
            }
        }
        long started = System.nanoTime();
        String table = run(scenario, seed, replications).render();
        System.out.println(table);
        System.out.printf(Locale.ROOT, "(simulated in %.1f s of real time)%n", (System.nanoTime() - started) / 1e9);
        if (out != null) {
            Files.writeString(out, table);
            System.out.println("table written to " + out);
        }
    }

    /** Draws {@code replications} loads from seeds {@code seed}, {@code seed + 1}, … and runs each in both modes. */
    static SchedulingReport run(SimScenario scenario, long seed, int replications) {
        if (replications < 1) {
            throw new IllegalArgumentException("--replications must be >= 1, got " + replications);
        }
        SchedulingSettings fair = SchedulingSettings.defaults();
        SchedulingSettings fifo = fair.withMode(SchedulingSettings.Mode.FIFO);
        List<SimOutcome> fairRuns = new ArrayList<>();
        List<SimOutcome> fifoRuns = new ArrayList<>();
        for (int r = 0; r < replications; r++) {
            List<SimLoad.Message> load = SimLoad.draw(scenario, seed + r);
            fairRuns.add(SimRun.run(load, fair, scenario.cap()));
            fifoRuns.add(SimRun.run(load, fifo, scenario.cap()));
        }
        return new SchedulingReport(scenario, fairRuns, fifoRuns, seed);
    }
}
