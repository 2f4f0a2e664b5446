package dev.laneway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * Next and missed fires of a cron expression in its time zone, daylight saving time included
 * (docs/behaviour.md §12, docs/decisions.md D56).
 */
class CronScheduleTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    private static List<Instant> fires(CronSchedule cron, Instant after, int count) {
        List<Instant> out = new ArrayList<>();
        Instant from = after;
        for (int i = 0; i < count; i++) {
            from = cron.next(from, null).orElseThrow();
            out.add(from);
        }
        return out;
    }

    @Test
    void weekdaysAtEightInTheJobsTimeZone() {
        CronSchedule berlin = CronSchedule.parse("0 8 * * 1-5", BERLIN);
        // Friday 2026-03-06 09:00 in Berlin (CET, +1): the next fire is Monday 08:00 CET
        assertEquals(Optional.of(at("2026-03-09T07:00:00Z")), berlin.next(at("2026-03-06T08:00:00Z"), null));
        // in summer (CEST, +2) the same local time is an hour earlier in UTC
        assertEquals(Optional.of(at("2026-07-06T06:00:00Z")), berlin.next(at("2026-07-04T00:00:00Z"), null));
        CronSchedule utc = CronSchedule.parse("0 8 * * 1-5", ZoneOffset.UTC);
        assertEquals(Optional.of(at("2026-03-09T08:00:00Z")), utc.next(at("2026-03-06T08:00:00Z"), null));
        assertEquals("cron \"0 8 * * 1-5\" in Europe/Berlin", berlin.describe());
        // both day fields restricted: either matches, as in Unix cron (the 1st, or any Monday)
        assertEquals(Optional.of(at("2026-03-09T00:00:00Z")),
                CronSchedule.parse("0 0 1 * 1", ZoneOffset.UTC).next(at("2026-03-02T01:00:00Z"), null));
    }

    @Test
    void aTimeTheClocksSkip_firesOnceAtTheChange_insteadOfNotAtAll() {
        // 2026-03-29 in Berlin: 02:00 CET becomes 03:00 CEST at 01:00Z; 02:30 does not exist that night
        CronSchedule daily = CronSchedule.parse("30 2 * * *", BERLIN);
        assertEquals(List.of(at("2026-03-28T01:30:00Z"), at("2026-03-29T01:00:00Z"), at("2026-03-30T00:30:00Z")),
                fires(daily, at("2026-03-27T12:00:00Z"), 3));
        // New York springs forward on 2026-03-08 at 07:00Z (02:00 EST -> 03:00 EDT)
        CronSchedule ny = CronSchedule.parse("0 2 * * *", NEW_YORK);
        assertEquals(List.of(at("2026-03-07T07:00:00Z"), at("2026-03-08T07:00:00Z"), at("2026-03-09T06:00:00Z")),
                fires(ny, at("2026-03-06T12:00:00Z"), 3));
    }

    @Test
    void aFrequentJob_acrossTheSkippedHour_firesOnceAtTheChange_notTwice() {
        CronSchedule halfHourly = CronSchedule.parse("*/30 * * * *", BERLIN);
        // 01:30 CET, then the change (03:00 CEST stands for 02:00, 02:30 and 03:00), then 03:30 CEST
        assertEquals(List.of(at("2026-03-29T00:30:00Z"), at("2026-03-29T01:00:00Z"), at("2026-03-29T01:30:00Z")),
                fires(halfHourly, at("2026-03-29T00:10:00Z"), 3));
    }

    @Test
    void anHourTheClocksRepeat_firesAFixedTimeOnce_andAWildcardHourInBothPasses() {
        // 2026-10-25 in Berlin: 03:00 CEST becomes 02:00 CET at 01:00Z; 02:00-03:00 local happens twice
        CronSchedule daily = CronSchedule.parse("30 2 * * *", BERLIN);
        assertEquals(List.of(at("2026-10-25T00:30:00Z"), at("2026-10-26T01:30:00Z")),
                fires(daily, at("2026-10-24T12:00:00Z"), 2));
        CronSchedule halfHourly = CronSchedule.parse("*/30 * * * *", BERLIN);
        assertEquals(List.of(at("2026-10-25T00:00:00Z"), at("2026-10-25T00:30:00Z"), at("2026-10-25T01:00:00Z"),
                        at("2026-10-25T01:30:00Z"), at("2026-10-25T02:00:00Z")),
                fires(halfHourly, at("2026-10-24T23:50:00Z"), 5));
    }

    @Test
    void latest_isTheMostRecentFireMissedInTheWindow() {
        CronSchedule cron = CronSchedule.parse("0 8 * * 1-5", BERLIN);
        // down from Friday 08:00 until Monday 08:30 (Berlin): Monday 08:00 is the latest missed fire
        assertEquals(Optional.of(at("2026-03-09T07:00:00Z")),
                cron.latest(at("2026-03-06T07:00:00Z"), at("2026-03-09T07:30:00Z")));
        assertEquals(Optional.of(at("2026-03-09T07:00:00Z")),
                cron.latest(at("2026-03-06T07:00:00Z"), at("2026-03-09T07:00:00Z")), "a fire at the end counts");
        assertEquals(Optional.empty(), cron.latest(at("2026-03-06T07:00:00Z"), at("2026-03-09T06:59:00Z")),
                "nothing over the weekend");
        CronSchedule daily = CronSchedule.parse("30 2 * * *", BERLIN);
        assertEquals(Optional.of(at("2026-03-29T01:00:00Z")),
                daily.latest(at("2026-03-28T01:30:00Z"), at("2026-03-29T05:00:00Z")), "the skipped-hour fire");
    }

    @Property(tries = 300)
    void nextAndLatestAgree(@ForAll @IntRange(min = 0, max = 5) int which,
                            @ForAll @LongRange(min = 0, max = 366L * 24 * 3600) long secondsInto2026) {
        String[] expressions = {"30 2 * * *", "*/30 * * * *", "0 8 * * 1-5", "15 1,2,3 * * 0", "0 0 29 2 *", "5 3 1 * *"};
        ZoneId[] zones = {BERLIN, NEW_YORK, ZoneOffset.UTC, ZoneId.of("Australia/Lord_Howe"), BERLIN, NEW_YORK};
        CronSchedule cron = CronSchedule.parse(expressions[which], zones[which]);
        Instant after = at("2026-01-01T00:00:00Z").plusSeconds(secondsInto2026);
        Instant next = cron.next(after, null).orElseThrow();
        assertTrue(next.isAfter(after));
        assertEquals(Optional.of(next), cron.latest(after, next), "the next fire is the latest one up to itself");
        assertEquals(Optional.empty(), cron.latest(after, next.minusNanos(1)), "and nothing comes before it");
    }

    @Test
    void whatIsWrongWithAnExpression_isSaid() {
        assertEquals("value 61 not in range [0, 59] (" + CronSchedule.FIELDS + ")", message("61 * * * *"));
        assertEquals("it has 6 field(s), not 5 (" + CronSchedule.FIELDS + ")", message("0 0 8 * * *"));
        assertTrue(message("@daily").startsWith("nicknames like @daily are not supported"), message("@daily"));
        assertEquals("it never fires: no date matches it", message("0 0 31 4 *"));
    }

    private static String message(String expression) {
        return assertThrows(IllegalArgumentException.class, () -> CronSchedule.parse(expression, ZoneOffset.UTC))
                .getMessage();
    }
}
