package dev.laneway.config;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

/** Test helpers: parse YAML text as {@code laneway.yaml}, or collect its problems. */
final class Configs {

    static final String SOURCE = "laneway.yaml";

    private Configs() {
    }

    static LanewayConfig parse(String yaml) throws ConfigException {
        return parse(yaml, Map.of());
    }

    static LanewayConfig parse(String yaml, Map<String, String> env) throws ConfigException {
        return ConfigLoader.parse(yaml, SOURCE, env);
    }

    static ConfigException failure(String yaml) {
        return failure(yaml, Map.of());
    }

    static ConfigException failure(String yaml, Map<String, String> env) {
        return assertThrows(ConfigException.class, () -> ConfigLoader.parse(yaml, SOURCE, env));
    }

    static List<ConfigProblem> problems(String yaml) {
        return failure(yaml).problems();
    }

    /** The single report line of a file with exactly one problem. */
    static String onlyProblem(String yaml) {
        return onlyProblem(yaml, Map.of());
    }

    static String onlyProblem(String yaml, Map<String, String> env) {
        ConfigException e = failure(yaml, env);
        if (e.problems().size() != 1) {
            throw new AssertionError("expected one problem, got:\n" + e.getMessage());
        }
        return e.getMessage();
    }
}
