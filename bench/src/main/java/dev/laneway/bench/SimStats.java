package dev.laneway.bench;

import java.util.Arrays;

/** Percentiles and Jain's fairness index for the scheduling simulation. */
final class SimStats {

    private SimStats() {
    }

    /**
     * The nearest-rank percentile of {@code values} (sorted here): the smallest value that at least
     * {@code p}% of them do not exceed. NaN for no values.
     */
    static double percentile(long[] values, double p) {
        if (values.length == 0) {
            return Double.NaN;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /** The share of {@code values} above {@code limit}; NaN for no values. */
    static double shareAbove(long[] values, long limit) {
        if (values.length == 0) {
            return Double.NaN;
        }
        return (double) Arrays.stream(values).filter(v -> v > limit).count() / values.length;
    }

    /**
     * Jain's fairness index of what each party received: (Σx)² / (n · Σx²), from 1/n (one party got
     * everything) to 1 (all got the same). NaN for no parties or nothing received.
     */
    static double jain(double[] shares) {
        double sum = 0;
        double squares = 0;
        for (double x : shares) {
            sum += x;
            squares += x * x;
        }
        return shares.length == 0 || squares == 0 ? Double.NaN : sum * sum / (shares.length * squares);
    }
}
