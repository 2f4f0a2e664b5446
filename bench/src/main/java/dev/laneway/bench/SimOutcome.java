package dev.laneway.bench;

import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What one load did in one scheduling mode: per message when it asked {@code main} (at arrival, or
 * when its session's previous run ended), when it got a slot and when its run ended (indexed by
 * message id); slot time; and aging promotions. Its methods derive the report's measures.
 */
record SimOutcome(SchedulingSettings.Mode mode, List<SimLoad.Message> load, long[] asked, long[] granted,
                  long[] ended, int cap, long makespanMillis, long busySlotMillis, long waitedMillis,
                  long busyWhileWaitedMillis, int promotions, List<Estimate> estimates) {

    /** What the scheduler estimated when a run queued, against what it waited ({@code SchedulingObserver}). */
    record Estimate(PriorityClass asked, long waitedMillis, long estimatedMillis) {
    }

    /** |estimated − waited| of the runs of {@code asked} that waited or were expected to. */
    long[] estimateErrors(PriorityClass asked) {
        return estimates.stream().filter(e -> e.asked() == asked)
                .mapToLong(e -> Math.abs(e.estimatedMillis() - e.waitedMillis())).toArray();
    }

    /**
     * Service of the background tenants while all of them were backlogged.
     *
     * @param fromMillis    the jobs' release (every tenant has runs waiting from then)
     * @param toMillis      the first moment one of them had nothing left waiting (its last grant)
     * @param runsByTenant  runs granted to each in that window
     * @param jain          Jain's index of those counts
     */
    record Fairness(long fromMillis, long toMillis, Map<String, Integer> runsByTenant, double jain) {
    }

    /** How long the selected messages waited for a slot of main, from asking to the grant. */
    long[] waits(Predicate<SimLoad.Message> which) {
        return load.stream().filter(which).mapToLong(m -> granted[m.id()] - asked[m.id()]).toArray();
    }

    /** How long the selected messages waited from arrival to their run's start (their session's run too). */
    long[] delays(Predicate<SimLoad.Message> which) {
        return load.stream().filter(which).mapToLong(m -> granted[m.id()] - m.arrivalMillis()).toArray();
    }

    /** When the last background job ended; -1 without jobs. */
    long backgroundDoneMillis() {
        return load.stream().filter(m -> m.source() == SimLoad.Source.BACKGROUND).mapToLong(m -> ended[m.id()])
                .max().orElse(-1);
    }

    long backgroundJobsDone() {
        return load.stream().filter(m -> m.source() == SimLoad.Source.BACKGROUND && ended[m.id()] >= 0).count();
    }

    /**
     * Jain's index over the background tenants (equal weights, one class, every job its own session,
     * so all of a tenant's jobs wait from their release until granted): runs granted to each between
     * the release and the first moment one of them had nothing left waiting.
     */
    Fairness backgroundFairness() {
        Map<String, Long> lastGrant = new LinkedHashMap<>();
        long from = Long.MAX_VALUE;
        for (SimLoad.Message m : load) {
            if (m.source() == SimLoad.Source.BACKGROUND) {
                lastGrant.merge(m.tenant(), granted[m.id()], Math::max);
                from = Math.min(from, m.arrivalMillis());
            }
        }
        if (lastGrant.isEmpty()) {
            return new Fairness(0, 0, Map.of(), Double.NaN);
        }
        long to = lastGrant.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        Map<String, Integer> runs = new LinkedHashMap<>();
        lastGrant.keySet().forEach(tenant -> runs.put(tenant, 0));
        for (SimLoad.Message m : load) {
            long at = granted[m.id()];
            if (m.source() == SimLoad.Source.BACKGROUND && at >= from && at <= to) {
                runs.merge(m.tenant(), 1, Integer::sum);
            }
        }
        double jain = SimStats.jain(runs.values().stream().mapToDouble(Integer::doubleValue).toArray());
        return new Fairness(from, to, runs, jain);
    }

    /** Busy slot time over the slot time of the whole run (0 to the last run's end). */
    double utilisation() {
        return makespanMillis == 0 ? Double.NaN : (double) busySlotMillis / ((double) cap * makespanMillis);
    }

    @Override
    public String toString() {
        return "SimOutcome[" + mode + ", " + load.size() + " messages, makespan " + makespanMillis + " ms, asked "
                + Arrays.stream(asked).filter(a -> a < 0).count() + " never]";
    }
}
