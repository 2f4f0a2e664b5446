package dev.laneway.config;

/**
 * One problem found in a config file.
 *
 * @param path    the dotted key path ({@code messages.queue.cap}, {@code agents.list.x.tools[0]}),
 *                empty for problems about the whole file
 * @param line    1-based line, 0 when unknown
 * @param column  1-based column, 0 when unknown
 * @param message what is wrong, naming the bad value and what would be right
 */
public record ConfigProblem(String path, int line, int column, String message) {

    /** A longer path is cut in reports: a key can be as long as a line. */
    private static final int MAX_SHOWN_PATH = 120;

    public ConfigProblem {
        path = path == null ? "" : path;
    }

    /** One report line: {@code laneway.yaml: messages.queue.cap: must be ... (line 7, column 10)}. */
    public String format(String sourceName) {
        StringBuilder line = new StringBuilder(sourceName).append(": ");
        if (!path.isEmpty()) {
            line.append(path.length() > MAX_SHOWN_PATH ? path.substring(0, MAX_SHOWN_PATH) + "…" : path).append(": ");
        }
        line.append(message);
        if (this.line > 0) {
            line.append(" (line ").append(this.line).append(", column ").append(column).append(')');
        }
        return line.toString();
    }
}
