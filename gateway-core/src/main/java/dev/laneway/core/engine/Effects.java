package dev.laneway.core.engine;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Side effects decided under a session lock and carried out after it is released: sends, aborts,
 * lane requests. Keeps foreign code (channels, agents, lanes) out of locked sections. One failing
 * effect is logged and the others still run.
 */
final class Effects {

    private static final Logger log = LoggerFactory.getLogger(Effects.class);

    private final List<Runnable> pending = new ArrayList<>(4);

    void add(Runnable effect) {
        pending.add(effect);
    }

    void run() {
        for (Runnable effect : pending) {
            try {
                effect.run();
            } catch (RuntimeException e) {
                log.error("engine side effect failed", e);
            }
        }
        pending.clear();
    }
}
