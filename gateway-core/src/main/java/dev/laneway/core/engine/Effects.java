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

    private Runnable first;     // the first effect: most locked steps have none or one
    private Runnable[] more;    // the ones after it, made on the second (a run's end has about five)
    private int size;           // effects added, first included
    private VirtualMachineError fatal;

    void add(Runnable effect) {
        if (size == 0) {
            first = effect;
        } else {
            int at = size - 1;
            if (more == null) {
                more = new Runnable[8];
            } else if (at == more.length) {
                more = Arrays.copyOf(more, at * 2);
            }
            more[at] = effect;
        }
        size++;
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
                (i == 0 ? first : more[i - 1]).run();
            } catch (Throwable e) {
                log.error("engine side effect failed", e);
                rethrowAfterwards(e);
            }
        }
        first = null;
        more = null;
        size = 0;
        VirtualMachineError error = fatal;
        fatal = null;
        if (error != null) {
            throw error;
        }
    }
}
