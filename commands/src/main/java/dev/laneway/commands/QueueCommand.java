package dev.laneway.commands;

import dev.laneway.core.QueueOverride;
import java.util.List;
import java.util.Objects;

/**
 * What the arguments of one {@code /queue} message mean (docs/behaviour.md §6.2). Produced by
 * {@link QueueCommandParser}; a {@code switch} over it fails to compile when a form is added.
 */
public sealed interface QueueCommand {

    /** {@code /queue} alone: show the effective settings. */
    record Show() implements QueueCommand {
    }

    /** {@code /queue default|reset|clear}: remove the session's stored override. */
    record Reset() implements QueueCommand {
    }

    /** {@code /queue status}: the sender's queued messages with their places (docs/behaviour.md §6.9). */
    record Status() implements QueueCommand {
    }

    /** {@code /queue cancel} (the sender's queued messages) or {@code /queue cancel all} (everyone's; admins). */
    record Cancel(boolean everyone) implements QueueCommand {
    }

    /** Settings tokens, all valid: {@code override} holds exactly the fields the command named. */
    record Set(QueueOverride override) implements Settings {
        public Set {
            Objects.requireNonNull(override, "override");
            if (override.isEmpty()) {
                throw new IllegalArgumentException("a queue Set names at least one setting");
            }
        }
    }

    /** Something was not understood: every problem, in message order (docs/behaviour.md §6.3). Changes nothing. */
    record Invalid(List<String> problems) implements Settings {

        /** The most problems one reply lists: it stays one short message, however long the input. */
        public static final int MAX_LISTED = 10;

        public Invalid {
            problems = List.copyOf(problems);
            if (problems.isEmpty()) {
                throw new IllegalArgumentException("an Invalid queue command has at least one problem");
            }
        }

        /**
         * The one reply (docs/behaviour.md §6.3): the problems joined by one space, the first
         * {@link #MAX_LISTED} of them and {@code … and <n> more.} when there are more.
         */
        public String message() {
            if (problems.size() <= MAX_LISTED) {
                return String.join(" ", problems);
            }
            return String.join(" ", problems.subList(0, MAX_LISTED)) + " … and " + (problems.size() - MAX_LISTED)
                    + " more.";
        }
    }

    /**
     * An inline directive: {@code settings} apply to this message only and {@code text} goes to
     * the agent.
     *
     * @param directive the directive prefix as typed (the settings tokens, without {@code /queue})
     * @param settings  what the directive tokens mean: valid ({@link Set}) or not ({@link Invalid})
     * @param text      the rest of the message, verbatim from its first character; never blank
     */
    record Inline(String directive, Settings settings, String text) implements QueueCommand {
        public Inline {
            Objects.requireNonNull(directive, "directive");
            Objects.requireNonNull(settings, "settings");
            Objects.requireNonNull(text, "text");
        }
    }

    /** The outcome of a run of settings tokens: a {@link Set} or an {@link Invalid}. */
    sealed interface Settings extends QueueCommand permits Set, Invalid {
    }
}
