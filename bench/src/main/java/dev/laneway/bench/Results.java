package dev.laneway.bench;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/**
 * Finds JMH results by benchmark method and parameters, and formats numbers for the table. Every
 * lookup is remembered ({@link #lookups}), so a test can check that each benchmark and parameter
 * value the table asks for still exists, without running any benchmark.
 */
final class Results {

    /** One lookup: {@code Class.method} and the parameter values the result must have. */
    record Lookup(String method, Map<String, String> params) {
    }

    private final Collection<RunResult> runs;
    private final Set<Lookup> lookups = new LinkedHashSet<>();

    Results(Collection<RunResult> runs) {
        this.runs = runs;
    }

    /** Every lookup made so far, in order. */
    Set<Lookup> lookups() {
        return Collections.unmodifiableSet(lookups);
    }

    /** The result of {@code Class.method} whose parameters include all of {@code params}. */
    RunResult find(String method, Map<String, String> params) {
        lookups.add(new Lookup(method, Map.copyOf(params)));
        for (RunResult run : runs) {
            var p = run.getParams();
            if (!p.getBenchmark().endsWith("." + method)) {
                continue;
            }
            boolean all = params.entrySet().stream()
                    .allMatch(e -> e.getValue().equals(p.getParam(e.getKey())));
            if (all) {
                return run;
            }
        }
        return null;
    }

    /**
     * The median of the measurement iterations' scores. On a small shared machine a run can flip
     * between regimes mid-fork; the median (with the range, see {@link #rate}) is more honest
     * than the mean and its confidence interval.
     */
    OptionalDouble score(String method, Map<String, String> params) {
        double[] scores = iterationScores(method, params);
        return scores.length == 0 ? OptionalDouble.empty() : OptionalDouble.of(median(scores));
    }

    /** "1,234,567 (1,100,000–1,300,000)": median and range of the iterations, or a dash. */
    String rate(String method, Map<String, String> params) {
        double[] scores = iterationScores(method, params);
        if (scores.length == 0) {
            return "—";
        }
        return count(median(scores)) + " (" + count(scores[0]) + "–" + count(scores[scores.length - 1]) + ")";
    }

    /** The measurement iterations' primary scores, sorted. */
    private double[] iterationScores(String method, Map<String, String> params) {
        RunResult run = find(method, params);
        if (run == null) {
            return new double[0];
        }
        return run.getBenchmarkResults().stream()
                .flatMap(result -> result.getIterationResults().stream())
                .mapToDouble(iteration -> iteration.getPrimaryResult().getScore())
                .sorted()
                .toArray();
    }

    /**
     * Per measurement iteration, {@code count} ÷ ({@code nanos} / 1e9): a rate the benchmark timed
     * itself in secondary (aux counter) results, in iteration order; empty when missing.
     */
    double[] timedRates(String method, Map<String, String> params, String count, String nanos) {
        RunResult run = find(method, params);
        if (run == null) {
            return new double[0];
        }
        return run.getBenchmarkResults().stream()
                .flatMap(result -> result.getIterationResults().stream())
                .filter(it -> it.getSecondaryResults().containsKey(count) && it.getSecondaryResults().containsKey(nanos))
                .mapToDouble(it -> it.getSecondaryResults().get(count).getScore()
                        / (it.getSecondaryResults().get(nanos).getScore() / 1e9))
                .toArray();
    }

    /** "1,234,567 (1,100,000–1,300,000)": median and range of {@code values}, or a dash. */
    static String medianAndRange(double[] values, java.util.function.DoubleFunction<String> format) {
        if (values.length == 0) {
            return "—";
        }
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return format.apply(median(sorted)) + " (" + format.apply(sorted[0]) + "–" + format.apply(sorted[sorted.length - 1]) + ")";
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** A percentile (0-100) of a SampleTime result, in its unit (µs here). */
    OptionalDouble percentile(String method, Map<String, String> params, double percentile) {
        RunResult run = find(method, params);
        if (run == null) {
            return OptionalDouble.empty();
        }
        Statistics statistics = run.getPrimaryResult().getStatistics();
        return OptionalDouble.of(statistics.getPercentile(percentile));
    }

    static String count(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    static String micros(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.1f µs", value.getAsDouble()) : "—";
    }

    static String ratio(OptionalDouble ours, OptionalDouble baseline) {
        if (ours.isEmpty() || baseline.isEmpty() || baseline.getAsDouble() == 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f×", ours.getAsDouble() / baseline.getAsDouble());
    }
}
