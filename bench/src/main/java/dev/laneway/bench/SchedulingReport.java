package dev.laneway.bench;

import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.LongStream;

/**
 * The scheduling simulation's markdown: fair against fifo on the same loads, then issue 15's targets.
 * Waits are pooled over every replication (percentiles by nearest rank); per-run measures (when the
 * last job ended, Jain's index) are shown as median and range over the replications.
 */
final class SchedulingReport {

    private final SimScenario scenario;
    private final List<SimOutcome> fair;
    private final List<SimOutcome> fifo;
    private final long firstSeed;
    private final long interactiveBudgetMillis;
    private final long tightBudgetMillis;
    private final double meanRunMillis;
    private final StringBuilder out = new StringBuilder();

    /** @param fair and {@code fifo}: one outcome per replication, the same loads in the same order */
    SchedulingReport(SimScenario scenario, List<SimOutcome> fair, List<SimOutcome> fifo, long firstSeed) {
        if (fair.size() != fifo.size() || fair.isEmpty()) {
            throw new IllegalArgumentException("one fair and one fifo outcome per replication");
        }
        this.scenario = scenario;
        this.fair = fair;
        this.fifo = fifo;
        this.firstSeed = firstSeed;
        this.interactiveBudgetMillis = SchedulingSettings.defaultClasses().get(PriorityClass.INTERACTIVE).budget().toMillis();
        this.meanRunMillis = fair.stream().flatMap(o -> o.load().stream()).mapToLong(SimLoad.Message::runMillis)
                .average().orElseThrow();
        this.tightBudgetMillis = Math.round(2 * meanRunMillis);
    }

    private boolean interactive(SimLoad.Message m) {
        return m.priority() == PriorityClass.INTERACTIVE;
    }

    private boolean inFlood(SimLoad.Message m) {
        return m.arrivalMillis() >= scenario.floodStartMillis() && m.arrivalMillis() < scenario.floodEndMillis();
    }

    private Predicate<SimLoad.Message> interactiveInFlood() {
        return m -> interactive(m) && inFlood(m);
    }

    /** One outcome per replication of {@code mode}. */
    List<SimOutcome> outcomes(SchedulingSettings.Mode mode) {
        return mode == SchedulingSettings.Mode.FAIR ? fair : fifo;
    }

    /** Whether {@code mode} met each target of issue 15, in the table's order. */
    List<Boolean> targetsMet(SchedulingSettings.Mode mode) {
        return targets(outcomes(mode)).stream().map(Target::met).toList();
    }

    private record Target(String what, String result, boolean met) {
    }

    private List<Target> targets(List<SimOutcome> outcomes) {
        long[] waits = pooled(outcomes, o -> o.waits(interactiveInFlood()));
        long[] delays = pooled(outcomes, o -> o.delays(interactiveInFlood()));
        double[] jain = perRun(outcomes, o -> o.backgroundFairness().jain());
        double utilisation = pooledRatio(outcomes, SimOutcome::busyWhileWaitedMillis,
                o -> (double) o.cap() * o.waitedMillis());
        long done = outcomes.stream().mapToLong(SimOutcome::backgroundJobsDone).sum();
        long jobs = (long) scenario.backgroundTotal() * outcomes.size();
        List<Target> targets = new ArrayList<>();
        for (boolean fromArrival : new boolean[] {false, true}) {
            long[] values = fromArrival ? delays : waits;
            String measure = fromArrival ? "arrival → run start" : "wait for main";
            double misses = SimStats.shareAbove(values, interactiveBudgetMillis);
            double p95 = SimStats.percentile(values, 95);
            targets.add(new Target("interactive, " + measure + ", during the flood: over the "
                    + seconds(interactiveBudgetMillis) + " budget < 1%", percent(misses), misses < 0.01));
            targets.add(new Target("interactive, " + measure + ", during the flood: p95 < 2 × mean run time ("
                    + seconds(tightBudgetMillis) + ")", seconds(p95), p95 < tightBudgetMillis));
        }
        targets.add(new Target("Jain's index, background tenants while all backlogged ≥ 0.95 (lowest replication)",
                number(min(jain)), min(jain) >= 0.95));
        targets.add(new Target("slot utilisation while runs waited ≥ 95%", percent(utilisation), utilisation >= 0.95));
        targets.add(new Target("every background job done", String.format(Locale.ROOT, "%,d of %,d", done, jobs),
                done == jobs));
        return targets;
    }

    String render() {
        line("Scenario: " + scenario.describe() + ". " + fair.size() + " replications (seeds " + firstSeed + "–"
                + (firstSeed + fair.size() - 1) + "), each load run through `scheduling: fair` (the defaults: aging "
                + "2 min, background share 0.5, every tenant weight 1, no tenant caps) and through `scheduling: fifo` "
                + "(one flat line, the behaviour before scheduling). A message that arrives while its session has a run "
                + "waits behind it (followup) and asks main when that run ends. \"Wait for main\" is from asking main "
                + "to the grant; \"arrival → run start\" adds the wait behind the session's own earlier runs. Mean "
                + "drawn run time " + seconds(Math.round(meanRunMillis)) + ".");
        line("");
        line("| measure (waits pooled over the replications; per-run measures: median (min–max)) | fair | fifo |");
        line("|---|---:|---:|");
        String flood = String.format(Locale.ROOT, "%.0f–%.0f s", scenario.floodStartMillis() / 1000.0,
                scenario.floodEndMillis() / 1000.0);
        Predicate<SimLoad.Message> interactive = this::interactive;
        Predicate<SimLoad.Message> floodDms = m -> m.source() == SimLoad.Source.DM && inFlood(m);
        Predicate<SimLoad.Message> floodMentions = m -> m.source() == SimLoad.Source.GUILD_MENTION && inFlood(m);
        Predicate<SimLoad.Message> floodGuild = m -> m.source() == SimLoad.Source.GUILD && inFlood(m);
        row("interactive msgs that arrived during the flood (" + flood + ") / in all",
                o -> count(o, interactiveInFlood()) + " / " + count(o, interactive));
        row("interactive, wait for main, during the flood: p50 / p95 / p99",
                o -> percentiles(pooled(o, r -> r.waits(interactiveInFlood()))));
        row("… whole run: p50 / p95 / p99", o -> percentiles(pooled(o, r -> r.waits(interactive))));
        row("… over the " + seconds(interactiveBudgetMillis) + " budget (interactive default) / over 2 × mean run time ("
                + seconds(tightBudgetMillis) + "), during the flood",
                o -> overBudgets(pooled(o, r -> r.waits(interactiveInFlood()))));
        row("… the same, whole run", o -> overBudgets(pooled(o, r -> r.waits(interactive))));
        row("interactive, arrival → run start, during the flood: p50 / p95 / p99",
                o -> percentiles(pooled(o, r -> r.delays(interactiveInFlood()))));
        row("… DMs only: p50 / p95 / p99", o -> percentiles(pooled(o, r -> r.delays(floodDms))));
        row("… guild mentions only: p50 / p95 / p99", o -> percentiles(pooled(o, r -> r.delays(floodMentions))));
        row("… over " + seconds(interactiveBudgetMillis) + " / over " + seconds(tightBudgetMillis) + ", during the flood",
                o -> overBudgets(pooled(o, r -> r.delays(interactiveInFlood()))));
        row("guild's normal msgs during the flood: wait for main p50 / p95; arrival → run start p50 / p95",
                o -> seconds(SimStats.percentile(pooled(o, r -> r.waits(floodGuild)), 50)) + " / "
                        + seconds(SimStats.percentile(pooled(o, r -> r.waits(floodGuild)), 95)) + "; "
                        + seconds(SimStats.percentile(pooled(o, r -> r.delays(floodGuild)), 50)) + " / "
                        + seconds(SimStats.percentile(pooled(o, r -> r.delays(floodGuild)), 95)));
        row("how far the scheduler's wait estimate (made when an interactive run queued) was off, either way: p50 / p95",
                o -> {
                    long[] errors = pooled(o, r -> r.estimateErrors(PriorityClass.INTERACTIVE));
                    return seconds(SimStats.percentile(errors, 50)) + " / " + seconds(SimStats.percentile(errors, 95));
                });
        row("last background job done at", o -> spread(perRun(o, r -> r.backgroundDoneMillis()), v -> seconds(v)));
        row("background jobs done", o -> String.format(Locale.ROOT, "%,d of %,d",
                o.stream().mapToLong(SimOutcome::backgroundJobsDone).sum(), (long) scenario.backgroundTotal() * o.size()));
        row("Jain's index, runs granted to the " + scenario.backgroundJobs().length + " background tenants from their "
                        + "release until the first of them has nothing left waiting",
                o -> spread(perRun(o, r -> r.backgroundFairness().jain()), SchedulingReport::number));
        row("… that window's length", o -> spread(perRun(o, r -> {
            SimOutcome.Fairness f = r.backgroundFairness();
            return f.toMillis() - f.fromMillis();
        }), v -> seconds(v)));
        row("slot utilisation while runs waited for main",
                o -> percent(pooledRatio(o, SimOutcome::busyWhileWaitedMillis, r -> (double) r.cap() * r.waitedMillis())));
        row("slot utilisation, 0 s to the last run's end",
                o -> percent(pooledRatio(o, SimOutcome::busySlotMillis, r -> (double) r.cap() * r.makespanMillis())));
        row("background runs aged into normal (waited 2 min)",
                o -> String.format(Locale.ROOT, "%,d", o.stream().mapToLong(SimOutcome::promotions).sum()));
        line("");
        line("| target (issue 15) | fair | met | fifo, same loads |");
        line("|---|---:|:---:|---:|");
        List<Target> ours = targets(fair);
        List<Target> theirs = targets(fifo);
        for (int i = 0; i < ours.size(); i++) {
            Target t = ours.get(i);
            line("| " + t.what() + " | " + t.result() + " | " + (t.met() ? "yes" : "no") + " | " + theirs.get(i).result()
                    + (theirs.get(i).met() ? " (met)" : " (not met)") + " |");
        }
        return out.toString();
    }

    private String overBudgets(long[] values) {
        return percent(SimStats.shareAbove(values, interactiveBudgetMillis)) + " / "
                + percent(SimStats.shareAbove(values, tightBudgetMillis));
    }

    private void row(String measure, Function<List<SimOutcome>, String> value) {
        line("| " + measure + " | " + value.apply(fair) + " | " + value.apply(fifo) + " |");
    }

    private static long[] pooled(List<SimOutcome> outcomes, Function<SimOutcome, long[]> values) {
        return outcomes.stream().map(values).flatMapToLong(LongStream::of).toArray();
    }

    private static double[] perRun(List<SimOutcome> outcomes, ToDoubleFunction<SimOutcome> value) {
        return outcomes.stream().mapToDouble(value).toArray();
    }

    private static double pooledRatio(List<SimOutcome> outcomes, ToDoubleFunction<SimOutcome> part,
                                      ToDoubleFunction<SimOutcome> whole) {
        double parts = outcomes.stream().mapToDouble(part).sum();
        double wholes = outcomes.stream().mapToDouble(whole).sum();
        return wholes == 0 ? Double.NaN : parts / wholes;
    }

    private static String count(List<SimOutcome> outcomes, Predicate<SimLoad.Message> which) {
        return String.format(Locale.ROOT, "%,d", outcomes.stream().mapToLong(o -> o.load().stream().filter(which).count()).sum());
    }

    private static String percentiles(long[] waits) {
        return seconds(SimStats.percentile(waits, 50)) + " / " + seconds(SimStats.percentile(waits, 95)) + " / "
                + seconds(SimStats.percentile(waits, 99));
    }

    private static String spread(double[] values, Function<Double, String> format) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        return sorted.length == 1 ? format.apply(median)
                : format.apply(median) + " (" + format.apply(sorted[0]) + "–" + format.apply(sorted[sorted.length - 1]) + ")";
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    static String seconds(double millis) {
        if (Double.isNaN(millis)) {
            return "—";
        }
        return String.format(Locale.ROOT, millis < 10_000 ? "%.2f s" : "%,.0f s", millis / 1000);
    }

    static String percent(double share) {
        if (Double.isNaN(share)) {
            return "—";
        }
        return String.format(Locale.ROOT, share < 0.1 ? "%.2f%%" : "%.1f%%", share * 100);
    }

    static String number(double value) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%.3f", value);
    }

    private void line(String text) {
        out.append(text).append('\n');
    }
}
