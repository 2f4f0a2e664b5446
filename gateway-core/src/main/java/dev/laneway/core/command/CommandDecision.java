package dev.laneway.core.command;

import dev.laneway.core.QueueOverride;
import java.util.Objects;

/** What the command layer decided about one inbound message. */
public sealed interface CommandDecision {

    CommandDecision NOT_A_COMMAND = new NotACommand();

    /** Not a command: queue it as usual. */
    record NotACommand() implements CommandDecision {
    }

    /** A command, fully handled: send {@code text} as the reply; no agent run. */
    record Reply(String text) implements CommandDecision {
        public Reply {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * An inline directive: run {@code text} with {@code override} applied to this message only.
     * {@code notice}, when not null, is sent to the sender first (e.g. an unauthorized or invalid
     * directive that was ignored).
     */
    record Inline(QueueOverride override, String text, String notice) implements CommandDecision {
        public Inline {
            Objects.requireNonNull(override, "override");
            Objects.requireNonNull(text, "text");
        }
    }
}
