package dev.laneway.core.engine;

import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Side effects decided under a session lock and carried out after it is released: sends, aborts,
 * lane requests and releases, the journal records, listener and observer calls and channel hooks
 * of settled messages, run log lines. They run in the order they were added. Keeps foreign code (channels, agents, lanes) out of locked sections. One failing
 * effect is logged and the others still run, whatever it threw; a fatal error
 * ({@link VirtualMachineError}, also one handed to {@link #rethrowAfterwards}) is rethrown once
 * every effect has run, so it is never swallowed and never skips a permit release.
 */
final class Effects {

    private static final Logger log = LoggerFactory.getLogger(Effects.class);

    private Runnable[] pending; // created on the first effect: most locked steps have none
    private int size;
    private VirtualMachineError fatal;

    void add(Runnable effect) {
        if (pending == null) {
            pending = new Runnable[4];
        } else if (size == pending.length) {
            pending = Arrays.copyOf(pending, size * 2);
        }
        pending[size++] = effect;
    }

    /** Remembers a fatal error caught under the lock, to rethrow from {@link #run}; others are ignored. */
    void rethrowAfterwards(Throwable error) {
        if (error instanceof VirtualMachineError e && fatal == null) {
            fatal = e;
        }
    }

    void run() {
        // indexed: an effect may add another one, which then runs too
        for (int i = 0; i < size; i++) {
            try {
                pending[i].run();
            } catch (Throwable e) {
                log.error("engine side effect failed", e);
                rethrowAfterwards(e);
            }
        }
        pending = null;
        size = 0;
        VirtualMachineError error = fatal;
        fatal = null;
        if (error != null) {
            throw error;
        }
    }
}
