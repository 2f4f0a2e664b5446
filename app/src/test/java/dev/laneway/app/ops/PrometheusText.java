package dev.laneway.app.ops;

/** Reads series values out of the Prometheus text format, for assertions. */
final class PrometheusText {

    private PrometheusText() {
    }

    /** The value of the series written exactly as {@code name{labels}}; fails when it is absent. */
    static double value(String text, String series) {
        for (String line : text.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).strip().split(" ")[0]);
            }
        }
        throw new AssertionError("no series " + series + " in:\n" + text);
    }

    static boolean has(String text, String series) {
        for (String line : text.split("\n")) {
            if (line.startsWith(series + " ")) {
                return true;
            }
        }
        return false;
    }
}
