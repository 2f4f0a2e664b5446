package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import org.junit.jupiter.api.Test;

class IdleRunCheckTest {

    @Test
    void messagesThatAllRan_pass() {
        IdleRunCheck check = new IdleRunCheck();
        check.record(Disposition.RAN);
        check.record(Disposition.RAN);
        assertDoesNotThrow(check::verify);
        assertEquals(2, check.ran());
    }

    @Test
    void aMessageCollectedBehindAnotherRun_failsTheIdleBenchmark() {
        IdleRunCheck check = new IdleRunCheck();
        check.record(Disposition.RAN);
        check.record(Disposition.COLLECTED);
        IllegalStateException failure = assertThrows(IllegalStateException.class, check::verify);
        assertTrue(failure.getMessage().contains("1 of 2"), failure.getMessage());
        assertTrue(failure.getMessage().contains("COLLECTED"), failure.getMessage());
    }

    @Test
    void aRefusal_failsTheIdleBenchmark() {
        IdleRunCheck check = new IdleRunCheck();
        check.record(Disposition.REJECTED_BUSY);
        assertThrows(IllegalStateException.class, check::verify);
    }
}
