package dev.laneway.config;

import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${NAME}} and {@code ${NAME:-default}} in one scalar with values from the
 * environment; {@code $${} stands for a literal {@code ${}. As in a shell, the default is used
 * when the variable is unset or empty.
 *
 * <p>Not "before parsing" (docs/decisions.md D22): we replace variables in each scalar
 * after parsing instead: the visible result is the same for every value a variable can stand
 * for, but line and column numbers stay those of the file the user wrote, and a value holding
 * YAML syntax ({@code :}, {@code #}, quotes) cannot change the structure of the file.
 */
final class EnvInterpolator {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Map<String, String> env;

    EnvInterpolator(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /**
     * The text with every reference replaced, or null when a reference could not be resolved;
     * then each failure has been passed to {@code problem}.
     */
    String apply(String text, Consumer<String> problem) {
        if (!text.contains("${")) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        boolean ok = true;
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("$${", i)) {
                out.append("${");
                i += 3;
            } else if (text.startsWith("${", i)) {
                int end = text.indexOf('}', i + 2);
                if (end < 0) {
                    problem.accept("unterminated variable reference in " + YamlNode.quote(text)
                            + " (use ${NAME} or ${NAME:-default})");
                    return null;
                }
                String value = resolve(text.substring(i + 2, end), problem);
                ok &= value != null;
                out.append(value == null ? "" : value);
                i = end + 1;
            } else {
                out.append(text.charAt(i++));
            }
        }
        return ok ? out.toString() : null;
    }

    private String resolve(String reference, Consumer<String> problem) {
        int colon = reference.indexOf(":-");
        String name = colon < 0 ? reference : reference.substring(0, colon);
        if (!NAME.matcher(name).matches()) {
            // quoted: a reference spanning lines must not split the problem's one line
            problem.accept("invalid variable reference " + YamlNode.quote("${" + reference + "}")
                    + " (use ${NAME} or ${NAME:-default})");
            return null;
        }
        String value = env.get(name);
        if (colon >= 0) {
            return value == null || value.isEmpty() ? reference.substring(colon + 2) : value;
        }
        if (value == null) {
            problem.accept("environment variable " + name + " is not set (set it, or write ${"
                    + name + ":-default} to give a default)");
        }
        return value;
    }
}
