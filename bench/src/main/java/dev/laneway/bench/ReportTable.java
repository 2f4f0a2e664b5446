package dev.laneway.bench;

import static dev.laneway.bench.BenchMain.params;

import dev.laneway.core.QueueMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeSet;

/** Renders the results as markdown: machine, throughput, latency, durability, heap, and the targets. */
final class ReportTable {

    private static final String IDLE = "IdleSessionsBenchmark.accept";
    private static final String VARIANT = "IdleSessionsBenchmark.acceptVariant";
    private static final String ACTIVE = "ActiveSessionsBenchmark.laneway";
    private static final String ACTIVE_BARE = "ActiveSessionsBenchmark.bareQueue";
    private static final String DRAIN = "DrainBenchmark.drain";
    private static final String DEPTH = "FollowupDepthBenchmark.drain";
    private static final String LATENCY = "AcceptLatencyBenchmark.acceptToStart";
    private static final String DURABLE = "DurableAcceptBenchmark.producers";

    private final Results results;
    private final RestoreTime.Result restore;
    private final List<HeapFootprint.Row> heap;
    private final String settings;
    private final String runTime;
    private final StringBuilder out = new StringBuilder();

    /** @param runTime how long the run took, e.g. "372 s (JMH 300 s, ...)"; null leaves the line out */
    ReportTable(Results results, RestoreTime.Result restore, List<HeapFootprint.Row> heap, String settings,
                String runTime) {
        this.results = results;
        this.restore = restore;
        this.heap = heap;
        this.settings = settings;
        this.runTime = runTime;
    }

    String render() {
        out.append("Machine: ").append(machine()).append('\n');
        out.append("Settings: ").append(settings).append("; no-op agent (in the idle-session and latency rows it answers each run with a short text, and the bare"
                + " executor sends the same text), no-op channel, admission off; SQLite stores in ")
                .append(DataDirs.describe()).append(".\n");
        if (runTime != null) {
            out.append("Run time: ").append(runTime).append(".\n");
        }
        out.append('\n');
        throughput();
        queueing();
        drain();
        depth();
        latency();
        durability();
        restore();
        heap();
        targets();
        return out.toString();
    }

    private void throughput() {
        int cores = Runtime.getRuntime().availableProcessors();
        line("| throughput (per second) | Laneway | bare executor, virtual threads | bare executor, fixed pool of "
                + cores + " | Laneway ÷ bare (virtual) |");
        line("|---|---:|---:|---:|---:|");
        for (String sessions : List.of("1", "100", "10000")) {
            String label = "accepted msgs into idle sessions (each starts a run), " + String.format(Locale.ROOT, "%,d", Integer.parseInt(sessions))
                    + (sessions.equals("1") ? " session (one chat's round trip)" : " sessions")
                    + (sessions.equals("10000") ? " = runs started and finished" : "");
            row(label, IDLE, params("system", "laneway", "sessions", sessions),
                    params("system", "bare-virtual", "sessions", sessions),
                    params("system", "bare-fixed", "sessions", sessions));
        }
        line("| … same, 10,000 sessions, channel with a typing indicator | "
                + results.rate(VARIANT, params("system", "laneway-typing")) + " | | | |");
        line("| … same, 10,000 sessions, main lane cap 4 (the default) | "
                + results.rate(VARIANT, params("system", "laneway-main4")) + " | | | |");
        line("");
    }

    /** The queueing path against the least a hand-written queue does (one baseline: appending is the same in both modes). */
    private void queueing() {
        line("| accepted msgs/s into active sessions (queueing path; 10,000 sessions × 20, a run held open in each) | Laneway"
                + " | bare queue: per-session ReentrantLock + ArrayDeque append, the same for both modes | Laneway ÷ bare queue |");
        line("|---|---:|---:|---:|");
        Map<String, String> bare = params();
        for (String mode : List.of("collect", "followup")) {
            Map<String, String> ours = params("mode", mode);
            line("| " + mode + " | " + results.rate(ACTIVE, ours) + " | " + results.rate(ACTIVE_BARE, bare) + " | "
                    + Results.ratio(results.score(ACTIVE, ours), results.score(ACTIVE_BARE, bare)) + " |");
        }
        line("");
    }

    /** Drains have no baseline: a bare queue has no drain of its own to compare. */
    private void drain() {
        line(String.format(Locale.ROOT, "| drain: release %,d held runs with %d msgs queued behind each, until all %,d msgs"
                        + " have ended and every session is idle again | msgs ended/s | runs ended/s |",
                DrainBenchmark.SESSIONS, DrainBenchmark.PER_SESSION, DrainBenchmark.MESSAGES));
        line("|---|---:|---:|");
        for (QueueMode mode : List.of(QueueMode.COLLECT, QueueMode.FOLLOWUP)) {
            String name = mode.name().toLowerCase(Locale.ROOT);
            OptionalDouble messages = results.score(DRAIN, params("mode", name));
            int runs = DrainBenchmark.runsPerInvocation(mode);
            String runRate = messages.isPresent()
                    ? Results.count(messages.getAsDouble() * runs / DrainBenchmark.MESSAGES) : "—";
            String shape = mode == QueueMode.COLLECT
                    ? DrainBenchmark.PER_SESSION + " queued msgs → one run per session"
                    : "one run per queued msg";
            line(String.format(Locale.ROOT, "| %s (%s; %,d runs in all) | %s | %s |", name, shape, runs,
                    results.rate(DRAIN, params("mode", name)), runRate));
        }
        line("");
    }

    /**
     * One session's followup drain at two depths, measured alternately in the same iterations; the
     * ratio (per iteration, then the median) shows whether depth costs anything.
     */
    private void depth() {
        line(String.format(Locale.ROOT, "| followup drain at depth: one session, each queued msg its own run, %,d drained"
                + " per drain, the two depths drained alternately in the same iterations, each queue topped up between"
                + " drains | msgs ended/s |", FollowupDepthBenchmark.DRAINED));
        line("|---|---:|");
        double[] shallow = results.timedRates(DEPTH, Map.of(), "shallowMessages", "shallowNanos");
        double[] deep = results.timedRates(DEPTH, Map.of(), "deepMessages", "deepNanos");
        line(String.format(Locale.ROOT, "| %,d queued | %s |", FollowupDepthBenchmark.SHALLOW,
                Results.medianAndRange(shallow, Results::count)));
        line(String.format(Locale.ROOT, "| %,d queued | %s |", FollowupDepthBenchmark.DEEP,
                Results.medianAndRange(deep, Results::count)));
        double[] ratios = new double[Math.min(shallow.length, deep.length)];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = deep[i] / shallow[i];
        }
        line(String.format(Locale.ROOT, "| %,d ÷ %,d, per iteration | %s |", FollowupDepthBenchmark.DEEP,
                FollowupDepthBenchmark.SHALLOW, Results.medianAndRange(ratios,
                        r -> String.format(Locale.ROOT, "%.2f×", r))));
        line("");
    }

    private void row(String label, String method, Map<String, String> ours, Map<String, String> virtual,
                     Map<String, String> fixed) {
        line("| " + label + " | " + results.rate(method, ours) + " | " + results.rate(method, virtual) + " | "
                + results.rate(method, fixed) + " | "
                + Results.ratio(results.score(method, ours), results.score(method, virtual)) + " |");
    }

    private void latency() {
        line("| accept → agent start, idle session | Laneway | bare executor, virtual threads | bare executor, fixed pool"
                + " | Laneway − bare (virtual) |");
        line("|---|---:|---:|---:|---:|");
        for (double p : new double[] {50, 99, 99.9}) {
            OptionalDouble ours = results.percentile(LATENCY, params("system", "laneway"), p);
            OptionalDouble virtual = results.percentile(LATENCY, params("system", "bare-virtual"), p);
            OptionalDouble fixed = results.percentile(LATENCY, params("system", "bare-fixed"), p);
            line("| p" + trim(p) + " | " + Results.micros(ours) + " | " + Results.micros(virtual) + " | "
                    + Results.micros(fixed) + " | " + added(ours, virtual) + " |");
        }
        line("");
        line("Tail percentiles come from one fork's samples on a shared machine and vary widely from run to run;"
                + " where Laneway's is below the baseline it runs on, the difference is noise, not a saving.");
        line("");
    }

    /** Laneway's latency minus the baseline's; a negative difference is shown as noise. */
    static String added(OptionalDouble ours, OptionalDouble baseline) {
        if (ours.isEmpty() || baseline.isEmpty()) {
            return "—";
        }
        double difference = ours.getAsDouble() - baseline.getAsDouble();
        return difference < 0
                ? String.format(Locale.ROOT, "within noise (%.1f µs lower)", -difference)
                : String.format(Locale.ROOT, "+%.1f µs", difference);
    }

    private void durability() {
        line("| durable accept: msgs/s accepted (and run) through Gateway.accept, unique platform ids, 10,000 idle"
                + " sessions shared by the producers | in memory (MessageJournal.NONE) | SQLite store (WAL, synchronous=FULL, group commit) | SQLite ÷ in memory"
                + " | Redis store (local redis-server, appendfsync always, group commit) | Redis ÷ SQLite |");
        line("|---|---:|---:|---:|---:|---:|");
        for (int producers : new int[] {1, 8, 64}) {
            String method = DURABLE + producers;
            Map<String, String> memory = params("store", "memory");
            Map<String, String> sqlite = params("store", "sqlite");
            Map<String, String> redis = params("store", "redis");
            line("| " + producers + " producer thread" + (producers == 1 ? "" : "s") + " | " + results.rate(method, memory)
                    + " | " + results.rate(method, sqlite) + " | "
                    + Results.ratio(results.score(method, sqlite), results.score(method, memory)) + " | "
                    + results.rate(method, redis) + " | "
                    + Results.ratio(results.score(method, redis), results.score(method, sqlite)) + " |");
        }
        line("");
    }

    private void restore() {
        if (restore == null) {
            return;
        }
        int perSession = restore.items() / restore.sessions();
        line(String.format(Locale.ROOT, "| start-up restore of %,d queued items (%,d sessions × %d, followup) from the"
                        + " SQLite store, %.0f MB on disk | median of %d restarts (range) |", restore.items(),
                restore.sessions(), perSession, restore.storeBytes() / 1e6, restore.total().length));
        line("|---|---:|");
        line("| open: `SqliteStore.open` (schema check, dedupe keys, last sequence) | " + millis(restore.open()) + " |");
        line(String.format(Locale.ROOT, "| restore: build the Gateway + `start()` until every item is queued again and a run"
                + " has started in each of the %,d sessions | %s |", restore.sessions(), millis(restore.restore())));
        line("| open + restore | " + millis(restore.total()) + " |");
        line("| items restored per second (open + restore) | "
                + Results.count(restore.items() / (median(restore.total()) / 1000)) + "/s |");
        if (!Double.isNaN(restore.firstOpen())) {
            line("| the first restart in this JVM (restore code not yet JIT-compiled, as at a real start-up):"
                    + " open + restore | " + millis(new double[] {restore.firstOpen() + restore.firstRestore()}) + " ("
                    + millis(new double[] {restore.firstOpen()}) + " + " + millis(new double[] {restore.firstRestore()})
                    + ") |");
        }
        line(String.format(Locale.ROOT, "| (journaling them beforehand, not timed: %,d appends in group commits) | %s |",
                restore.items(), millis(new double[] {restore.populateMillis()})));
        line("");
    }

    /** "850 ms (800–900 ms)" from sorted values; a single value without a range; tenths below 10 ms. */
    private static String millis(double[] sorted) {
        if (sorted.length == 0) {
            return "—";
        }
        String median = ms(median(sorted)) + " ms";
        return sorted.length == 1 ? median
                : median + " (" + ms(sorted[0]) + "–" + ms(sorted[sorted.length - 1]) + " ms)";
    }

    private static String ms(double value) {
        return String.format(Locale.ROOT, value < 10 ? "%.1f" : "%,.0f", value);
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private void heap() {
        if (heap.isEmpty()) {
            return;
        }
        TreeSet<Integer> sizes = new TreeSet<>();
        Map<String, Map<Integer, HeapFootprint.Row>> byWhat = new LinkedHashMap<>();
        for (HeapFootprint.Row row : heap) {
            byWhat.computeIfAbsent(row.what(), what -> new LinkedHashMap<>()).put(row.sessions(), row);
            if (!row.once()) {
                sizes.add(row.sessions());
            }
        }
        StringBuilder header = new StringBuilder("| retained heap (after GC) |");
        StringBuilder rule = new StringBuilder("|---|");
        for (int size : sizes) {
            header.append(String.format(Locale.ROOT, " %,d sessions |", size));
            rule.append("---:|");
        }
        line(header.toString());
        line(rule.toString());
        byWhat.forEach((what, bySize) -> {
            StringBuilder line = new StringBuilder("| ").append(what).append(" |");
            HeapFootprint.Row any = bySize.values().iterator().next();
            for (int size : sizes) {
                HeapFootprint.Row row = any.once() ? any : bySize.get(size);
                line.append(row == null ? " — |" : String.format(Locale.ROOT, " %,.0f B/%s |", row.bytesPer(), row.per()));
            }
            line(line.toString());
        });
        line("");
    }

    private void targets() {
        OptionalDouble collect = results.score(ACTIVE, params("mode", "collect"));
        OptionalDouble followup = results.score(ACTIVE, params("mode", "followup"));
        OptionalDouble activeBare = results.score(ACTIVE_BARE, params());
        OptionalDouble runs = results.score(IDLE, params("system", "laneway", "sessions", "10000"));
        OptionalDouble runsBare = results.score(IDLE, params("system", "bare-virtual", "sessions", "10000"));
        OptionalDouble p99 = results.percentile(LATENCY, params("system", "laneway"), 99);
        OptionalDouble p99Bare = results.percentile(LATENCY, params("system", "bare-virtual"), 99);
        OptionalDouble idleBytes = worstHeap(HeapFootprint.IDLE);
        line("| target | result | met | baseline (same run) |");
        line("|---|---:|:---:|---|");
        OptionalDouble activeMin = min(collect, followup);
        line("| ≥ 1,000,000 accepted msgs/s into active sessions | " + rate(activeMin) + " (lower of collect, followup) | "
                + met(activeMin, v -> v >= 1_000_000) + " | bare queue " + rate(activeBare) + "; ratio "
                + Results.ratio(activeMin, activeBare) + " |");
        line("| ≥ 200,000 runs started and finished/s, no-op agent answering a short text | " + rate(runs) + " (10,000 idle sessions) | "
                + met(runs, v -> v >= 200_000) + " | bare virtual-thread executor " + rate(runsBare)
                + " three-hand-off runs; ratio "
                + Results.ratio(runs, runsBare) + " |");
        line("| accept → start p99 < 1 ms, idle | " + Results.micros(p99) + " | " + met(p99, v -> v < 1000) + " | "
                + "bare virtual-thread executor " + Results.micros(p99Bare) + " |");
        line("| ≤ 1 KB heap per idle session | " + bytes(idleBytes) + " (in-memory store, messages without platform ids; "
                + bytes(worstHeap(HeapFootprint.OVERRIDE)) + " with a /queue override) | " + met(idleBytes, v -> v <= 1024) + " | — |");
    }

    private OptionalDouble worstHeap(String what) {
        return heap.stream().filter(row -> row.what().equals(what)).mapToDouble(HeapFootprint.Row::bytesPer).max();
    }

    private static String bytes(OptionalDouble value) {
        return value.isPresent() ? Results.count(value.getAsDouble()) + " B" : "—";
    }

    private static OptionalDouble min(OptionalDouble a, OptionalDouble b) {
        if (a.isEmpty() || b.isEmpty()) {
            return a.isEmpty() ? b : a;
        }
        return OptionalDouble.of(Math.min(a.getAsDouble(), b.getAsDouble()));
    }

    private static String rate(OptionalDouble value) {
        return value.isPresent() ? Results.count(value.getAsDouble()) + "/s" : "—";
    }

    private static String met(OptionalDouble value, java.util.function.DoublePredicate test) {
        return value.isEmpty() ? "—" : test.test(value.getAsDouble()) ? "yes" : "no";
    }

    private static String trim(double p) {
        return p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p);
    }

    private void line(String text) {
        out.append(text).append('\n');
    }

    private static String machine() {
        List<String> parts = new ArrayList<>();
        parts.add(Runtime.getRuntime().availableProcessors() + " cores");
        cpuModel().ifPresent(parts::add);
        memTotal().ifPresent(parts::add);
        parts.add(System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version"));
        parts.add(System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        return String.join(", ", parts);
    }

    private static java.util.Optional<String> cpuModel() {
        return procLine("/proc/cpuinfo", "model name").map(line -> line.substring(line.indexOf(':') + 1).trim());
    }

    private static java.util.Optional<String> memTotal() {
        return procLine("/proc/meminfo", "MemTotal").map(line -> {
            long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
            return String.format(Locale.ROOT, "%.0f GiB RAM", kb / 1024.0 / 1024.0);
        });
    }

    private static java.util.Optional<String> procLine(String file, String prefix) {
        try {
            return Files.readAllLines(Path.of(file)).stream().filter(line -> line.startsWith(prefix)).findFirst();
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
