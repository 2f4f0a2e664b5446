package dev.laneway.channels.slack;

import java.util.Objects;

/** What became of one Slack event or slash command: a message for the gateway, or why not. */
sealed interface Conversion {

    record Accepted(InboundDraft draft) implements Conversion {
        public Accepted {
            Objects.requireNonNull(draft, "draft");
        }
    }

    record Ignored(String reason) implements Conversion {
    }
}
