package dev.laneway.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every benchmark (JMH, one fork each), the start-up restore measurement, the heap
 * measurement and the scheduling and provider simulations ({@link SchedulingSimulation},
 * {@link ProviderSimulation}, virtual time, about a second each), then prints one markdown table with the machine it ran on. Usage (see bench/run.sh):
 * <pre>
 *   java -Xmx6g -jar bench/target/benchmarks.jar [--quick] [--only REGEX] [--no-heap] [--no-jmh]
 *        [--no-restore] [--restore-items 100000] [--heap-sessions 100000,1000000] [--out FILE]
 * </pre>
 * The durable store's scratch directories go to {@code java.io.tmpdir} (forks get the same one).
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) throws RunnerException, InterruptedException, IOException {
        Arguments arguments = Arguments.parse(args);
        long started = System.nanoTime();
        Collection<RunResult> runs = arguments.jmh ? runJmh(arguments) : List.of();
        long jmhDone = System.nanoTime();
        RestoreTime.Result restore = null;
        if (arguments.restore) {
            restore = RestoreTime.measure(arguments.restoreItems, 1, arguments.restarts);
        }
        long restoreDone = System.nanoTime();
        List<HeapFootprint.Row> heap = new ArrayList<>();
        if (arguments.heap) {
            heap.add(HeapFootprint.messageSize(100_000));
            System.out.println("# heap: dedupe");
            heap.add(HeapFootprint.dedupe());
            for (int sessions : arguments.heapSessions) {
                System.out.printf("# heap: %,d sessions%n", sessions);
                heap.addAll(HeapFootprint.measure(sessions));
                heap.add(HeapFootprint.typingTimers(sessions));
            }
        }
        long heapDone = System.nanoTime();
        String scheduling = null;
        String providers = null;
        if (arguments.sim) {
            System.out.println("# scheduling simulation");
            scheduling = SchedulingSimulation.run(SimScenario.issue15(), 1, SchedulingSimulation.DEFAULT_REPLICATIONS)
                    .render();
            System.out.println("# provider simulation");
            providers = ProviderSimulation.render(1, ProviderSimulation.DEFAULT_REPLICATIONS);
        }
        long simDone = System.nanoTime();
        String runTime = String.format(Locale.ROOT,
                "%.0f s in all (JMH %.0f s, restore %.0f s, heap %.0f s, scheduling simulation %.1f s)",
                seconds(started, simDone), seconds(started, jmhDone), seconds(jmhDone, restoreDone),
                seconds(restoreDone, heapDone), seconds(heapDone, simDone));
        String table = new ReportTable(new Results(runs), restore, heap, arguments.describe(), runTime).render();
        if (scheduling != null) {
            table += "\nScheduling when the model is the bottleneck (virtual time, `SchedulingSimulation`):\n\n"
                    + scheduling;
        }
        if (providers != null) {
            table += "\nProvider pools: capacity and outages (virtual time, `ProviderSimulation`):\n\n" + providers;
        }
        System.out.println();
        System.out.println(table);
        if (arguments.out != null) {
            Files.writeString(arguments.out, table);
            System.out.println("table written to " + arguments.out);
        }
    }

    private static double seconds(long from, long to) {
        return (to - from) / 1e9;
    }

    private static Collection<RunResult> runJmh(Arguments arguments) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(arguments.only)
                .forks(1)
                // no .threads(): each benchmark's @Threads applies (1 unless it says otherwise)
                .warmupIterations(arguments.warmups)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(arguments.measurements)
                .measurementTime(TimeValue.seconds(1))
                .jvmArgs(forkJvmArgs())
                .shouldFailOnError(true);
        return new Runner(options.build()).run();
    }

    /**
     * Fork heap fixed at 2 GB, the same scratch directory, native access for SQLite; on JDK 23+ JMH's
     * use of sun.misc.Unsafe is allowed without a warning.
     */
    private static String[] forkJvmArgs() {
        List<String> args = new ArrayList<>(List.of("-Xms2g", "-Xmx2g",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "--enable-native-access=ALL-UNNAMED")); // sqlite-jdbc loads its native library
        if (Runtime.version().feature() >= 23) {
            args.add("--sun-misc-unsafe-memory-access=allow");
        }
        return args.toArray(String[]::new);
    }

    /** The command line. */
    static final class Arguments {
        String only = "dev\\.laneway\\.bench\\..*";
        boolean jmh = true;
        boolean heap = true;
        boolean restore = true;
        boolean sim = true;
        int restoreItems = 100_000;
        int restarts = 5;
        int warmups = 3;
        int measurements = 8;
        int[] heapSessions = {100_000, 1_000_000};
        Path out;

        static Arguments parse(String[] args) {
            Arguments a = new Arguments();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--quick" -> {
                        a.warmups = 1;
                        a.measurements = 2;
                        a.heapSessions = new int[] {100_000};
                        a.restarts = 2;
                    }
                    case "--only" -> a.only = args[++i];
                    case "--no-heap" -> a.heap = false;
                    case "--no-jmh" -> a.jmh = false;
                    case "--no-restore" -> a.restore = false;
                    case "--no-sim" -> a.sim = false;
                    case "--restore-items" -> a.restoreItems = Integer.parseInt(args[++i].replace("_", "").trim());
                    case "--heap-sessions" -> a.heapSessions = java.util.Arrays.stream(args[++i].split(","))
                            .mapToInt(s -> Integer.parseInt(s.replace("_", "").trim())).toArray();
                    case "--out" -> a.out = Path.of(args[++i]);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]
                            + " (known: --quick, --only REGEX, --no-heap, --no-jmh, --no-restore, --no-sim, --restore-items N,"
                            + " --heap-sessions N,M, --out FILE)");
                }
            }
            return a;
        }

        String describe() {
            return "JMH 1.37, 1 fork, 1 benchmark thread (durable accept: 1, 8, 64), " + warmups + " × 1 s warmup, "
                    + measurements + " × 1 s measurement, forks with -Xmx2g; throughput is the median of the "
                    + "measurement iterations (range in brackets)";
        }
    }

    static Map<String, String> params(String... keyValues) {
        java.util.LinkedHashMap<String, String> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }
}
