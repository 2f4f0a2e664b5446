package dev.laneway.config;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.laneway.core.jobs.FireSchedule;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A scheduled job's cron expression in its time zone: the five fields of Unix cron (minute, hour,
 * day of month, month, day of week), parsed and evaluated by cron-utils (docs/decisions.md D56).
 *
 * <p>Daylight saving time, as Vixie cron does it: in an hour the clocks repeat, a fixed time fires
 * once and a wildcard hour fires in both (cron-utils' own behaviour); a time the clocks skip (02:30
 * on the night they spring forward) fires once, at the moment of the change, instead of not at all
 * (cron-utils alone would skip it: the one rule added here).
 *
 * <p>Immutable and thread-safe (cron-utils' execution time is computed without shared state).
 */
public final class CronSchedule implements FireSchedule {

    /** What the five fields are, for error messages. */
    static final String FIELDS = "5 fields: minute hour day-of-month month day-of-week, e.g. \"0 8 * * 1-5\"";
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final int MAX_STEPS = 1000;

    private final String expression;
    private final ZoneId zone;
    private final ExecutionTime time;

    private CronSchedule(String expression, ZoneId zone, ExecutionTime time) {
        this.expression = expression;
        this.zone = zone;
        this.time = time;
    }

    /**
     * Parses {@code expression} for {@code zone}.
     *
     * @throws IllegalArgumentException saying what is wrong with it, in a sentence for the config error
     */
    public static CronSchedule parse(String expression, ZoneId zone) {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(zone, "zone");
        String text = expression.trim();
        Cron cron;
        try {
            cron = PARSER.parse(text);
            cron.validate();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(why(e.getMessage()) + " (" + FIELDS + ")");
        }
        CronSchedule schedule = new CronSchedule(text, zone, ExecutionTime.forCron(cron));
        if (schedule.time.nextExecution(ZonedDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)).isEmpty()) {
            throw new IllegalArgumentException("it never fires: no date matches it");
        }
        return schedule;
    }

    /** cron-utils' message, as a sentence about the user's expression. */
    private static String why(String message) {
        String text = message == null ? "" : message.replace("Failed to parse cron expression.", "").trim();
        if (text.startsWith("Cron expression contains")) {
            return text.replaceFirst("Cron expression contains (\\d+) parts but we expect one of \\[5\\]",
                    "it has $1 field(s), not 5");
        }
        if (text.toLowerCase(Locale.ROOT).contains("nicknames not supported")) {
            return "nicknames like @daily are not supported: write the five fields (\"0 0 * * *\" for @daily)";
        }
        if (text.isEmpty()) {
            return "it is not a cron expression";
        }
        text = Character.toLowerCase(text.charAt(0)) + text.substring(1);
        return text.endsWith(".") || text.endsWith("!") ? text.substring(0, text.length() - 1) : text;
    }

    public String expression() {
        return expression;
    }

    public ZoneId zone() {
        return zone;
    }

    @Override
    public Optional<Instant> next(Instant after, Instant anchor) {
        Optional<Instant> regular = time.nextExecution(after.atZone(zone)).map(ZonedDateTime::toInstant);
        if (regular.isEmpty()) {
            return regular;
        }
        Optional<Instant> skipped = skippedFire(after, regular.get());
        return skipped.isPresent() && skipped.get().isBefore(regular.get()) ? skipped : regular;
    }

    /**
     * The first moment in {@code (after, until]} at which the clocks skip forward past a local time this
     * expression matches: such a fire happens once, at the change.
     */
    private Optional<Instant> skippedFire(Instant after, Instant until) {
        ZoneOffsetTransition change = zone.getRules().nextTransition(after);
        while (change != null && !change.getInstant().isAfter(until)) {
            if (change.isGap() && matchesBetween(change.getDateTimeBefore(), change.getDateTimeAfter())) {
                return Optional.of(change.getInstant());
            }
            change = zone.getRules().nextTransition(change.getInstant());
        }
        return Optional.empty();
    }

    /** Whether the expression matches a local time in {@code [from, to)}, read on a clock without DST. */
    private boolean matchesBetween(LocalDateTime from, LocalDateTime to) {
        return time.nextExecution(from.minusSeconds(1).atZone(ZoneOffset.UTC))
                .map(match -> match.toLocalDateTime().isBefore(to))
                .orElse(false);
    }

    @Override
    public Optional<Instant> latest(Instant since, Instant until) {
        Instant from = since;
        Optional<Instant> last = time.lastExecution(until.plusSeconds(1).atZone(zone)).map(ZonedDateTime::toInstant);
        if (last.isPresent() && last.get().isAfter(since) && !last.get().isAfter(until)) {
            from = last.get().minusNanos(1); // found again below, with a skipped-hour fire after it, if any
        }
        Instant found = null;
        for (int step = 0; step < MAX_STEPS; step++) {
            Optional<Instant> next = next(from, null);
            if (next.isEmpty() || next.get().isAfter(until)) {
                break;
            }
            found = next.get();
            from = found;
        }
        return Optional.ofNullable(found);
    }

    @Override
    public String describe() {
        return "cron \"" + expression + "\" in " + zone.getId();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CronSchedule that && expression.equals(that.expression) && zone.equals(that.zone);
    }

    @Override
    public int hashCode() {
        return Objects.hash(expression, zone);
    }

    @Override
    public String toString() {
        return describe();
    }
}
