package dev.laneway.config;

import dev.laneway.config.YamlNode.Pos;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Collects every problem of one load, so the user sees them all at once. Not thread-safe. */
final class Problems {

    private final List<ConfigProblem> problems = new ArrayList<>();
    private final Set<String> paths = new HashSet<>();

    void add(String path, Pos pos, String message) {
        problems.add(new ConfigProblem(path, pos.line(), pos.column(), message));
        paths.add(path);
    }

    /** Whether a problem was already reported for this exact path (to avoid a second, derived one). */
    boolean reportedAt(String path) {
        return paths.contains(path);
    }

    /** How many problems were reported so far (a binder compares before and after one entry). */
    int count() {
        return problems.size();
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    /** The problems in file order (problems without a location first). */
    List<ConfigProblem> inFileOrder() {
        return problems.stream()
                .sorted(Comparator.comparingInt(ConfigProblem::line).thenComparingInt(ConfigProblem::column))
                .toList();
    }
}
