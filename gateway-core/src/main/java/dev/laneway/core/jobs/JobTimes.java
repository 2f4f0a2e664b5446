package dev.laneway.core.jobs;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** How jobs' times read in logs, {@code /status} and {@code GET /status}. */
public final class JobTimes {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    private JobTimes() {
    }

    /** In the duration grammar of the config file: {@code 30m}, {@code 1h30m}, {@code 90s}, {@code 250ms}. */
    public static String duration(Duration d) {
        long millis = d.toMillis();
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        StringBuilder out = new StringBuilder();
        if (seconds >= 3600) {
            out.append(seconds / 3600).append('h');
        }
        if (seconds % 3600 >= 60) {
            out.append(seconds % 3600 / 60).append('m');
        }
        if (seconds % 60 != 0 || out.isEmpty()) {
            out.append(seconds % 60).append('s');
        }
        return out.toString();
    }

    /** A local time in the job's zone: {@code 2026-03-02 08:00 Europe/Berlin}. */
    public static String local(Instant at, ZoneId zone) {
        return LOCAL.format(at.atZone(zone)) + " " + zone.getId();
    }
}
