package dev.laneway.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SessionStore} promises about scheduled jobs' last fires
 * ({@link SessionStore#lastFire}, {@link SessionStore#recordFire}); each store's test extends it.
 */
public abstract class SessionStoreFiresContract {

    /** A fresh, empty store for one test. */
    protected abstract SessionStore store();

    @Test
    void aJobThatNeverFiredHasNoLastFire() {
        assertEquals(Optional.empty(), store().lastFire("morning"));
    }

    @Test
    void aRecordedFireIsReadBackExactly_toTheNanosecond() {
        SessionStore store = store();
        Instant at = Instant.parse("2026-03-02T07:00:00.123456789Z");
        store.recordFire("morning", at);
        assertEquals(Optional.of(at), store.lastFire("morning"));
    }

    @Test
    void aLaterRecordReplacesTheEarlierOne_evenWithAnEarlierTime() {
        SessionStore store = store();
        store.recordFire("morning", Instant.parse("2026-03-02T07:00:00Z"));
        store.recordFire("morning", Instant.parse("2026-03-03T07:00:00Z"));
        assertEquals(Optional.of(Instant.parse("2026-03-03T07:00:00Z")), store.lastFire("morning"));
        store.recordFire("morning", Instant.parse("2026-03-01T07:00:00Z"));
        assertEquals(Optional.of(Instant.parse("2026-03-01T07:00:00Z")), store.lastFire("morning"));
    }

    @Test
    void jobsAreKeptApart() {
        SessionStore store = store();
        store.recordFire("morning", Instant.parse("2026-03-02T07:00:00Z"));
        store.recordFire("evening", Instant.parse("2026-03-02T19:00:00Z"));
        assertEquals(Optional.of(Instant.parse("2026-03-02T07:00:00Z")), store.lastFire("morning"));
        assertEquals(Optional.of(Instant.parse("2026-03-02T19:00:00Z")), store.lastFire("evening"));
        assertEquals(Optional.empty(), store.lastFire("Morning"));
    }
}
