package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;

/** Told once for every inbound message how it ended (metrics, logs, tests). Must not block. */
@FunctionalInterface
public interface DispositionListener {

    DispositionListener NONE = (message, disposition) -> { };

    void recorded(InboundMessage message, Disposition disposition);
}
