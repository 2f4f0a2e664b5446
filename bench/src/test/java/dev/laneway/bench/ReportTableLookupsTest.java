package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The table finds its cells by benchmark name and parameter value; a renamed benchmark or
 * {@code @Param} would silently turn cells into dashes. These tests read JMH's generated benchmark
 * list (META-INF/BenchmarkList, written at compile time) and run no benchmark.
 */
class ReportTableLookupsTest {

    private static Set<BenchmarkListEntry> benchmarks() {
        return BenchmarkList.defaultList()
                .getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of());
    }

    private static Set<Results.Lookup> lookupsOfARender() {
        Results results = new Results(List.of());
        new ReportTable(results, null, List.of(), "settings", null).render();
        return results.lookups();
    }

    @Test
    void everyBenchmarkTheTableReads_exists() {
        Set<BenchmarkListEntry> benchmarks = benchmarks();
        Set<Results.Lookup> lookups = lookupsOfARender();
        assertTrue(lookups.size() >= 20, "the render should look up every cell, got " + lookups);
        for (Results.Lookup lookup : lookups) {
            assertFalse(matching(benchmarks, lookup.method()).isEmpty(),
                    () -> "the table reads " + lookup.method() + ", which is not a benchmark (renamed?)");
        }
    }

    @Test
    void everyParameterValueTheTableReads_isDeclaredByItsBenchmark() {
        Set<BenchmarkListEntry> benchmarks = benchmarks();
        for (Results.Lookup lookup : lookupsOfARender()) {
            List<BenchmarkListEntry> entries = matching(benchmarks, lookup.method());
            lookup.params().forEach((name, value) -> assertTrue(
                    entries.stream().anyMatch(entry -> declares(entry, name, value)),
                    () -> lookup.method() + " declares no @Param " + name + " with the value " + value
                            + " that the table reads (renamed?)"));
        }
    }

    @Test
    void drainRates_divideByEveryMessageTheTimedOperationEnds() {
        BenchmarkListEntry drain = matching(benchmarks(), "DrainBenchmark.drain").get(0);
        assertEquals(DrainBenchmark.SESSIONS * (DrainBenchmark.PER_SESSION + 1),
                drain.getOperationsPerInvocation().get(), "the held message and the queued ones, in every session");
        assertEquals(DrainBenchmark.MESSAGES, drain.getOperationsPerInvocation().get());
    }

    private static List<BenchmarkListEntry> matching(Set<BenchmarkListEntry> benchmarks, String method) {
        return benchmarks.stream().filter(entry -> entry.getUsername().endsWith("." + method)).toList();
    }

    private static boolean declares(BenchmarkListEntry entry, String name, String value) {
        if (!entry.getParams().hasValue()) {
            return false;
        }
        Map<String, String[]> params = entry.getParams().get();
        return params.containsKey(name) && Arrays.asList(params.get(name)).contains(value);
    }
}
