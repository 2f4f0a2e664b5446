package dev.laneway.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A config file that cannot be used. Carries every problem found in the file, not just the
 * first; {@link #getMessage()} is one report line per problem, in file order.
 */
public final class ConfigException extends Exception {

    private final String sourceName;
    private final List<ConfigProblem> problems;

    public ConfigException(String sourceName, List<ConfigProblem> problems) {
        super(report(sourceName, problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.sourceName = sourceName;
        this.problems = List.copyOf(problems);
    }

    /** The file name the problems refer to, as given to the loader. */
    public String sourceName() {
        return sourceName;
    }

    public List<ConfigProblem> problems() {
        return problems;
    }

    private static String report(String sourceName, List<ConfigProblem> problems) {
        return problems.stream().map(p -> p.format(sourceName)).collect(Collectors.joining("\n"));
    }
}
