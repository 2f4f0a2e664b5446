package dev.laneway.commands;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import java.util.ArrayList;
import java.util.List;

/**
 * The replies of the chat commands. Texts are byte-for-byte those of docs/behaviour.md §10.3;
 * emoji are written as escapes so no editor can change them: {@code \u2699\uFE0F} is ⚙️ (gear +
 * emoji presentation selector), {@code \u26D4} is ⛔ (no selector, as docs/behaviour.md shows).
 */
final class Replies {

    static final String GEAR = "\u2699\uFE0F ";
    static final String NO_ENTRY = "\u26D4 ";

    static final String QUEUE_RESET = GEAR + "Queue mode reset to default.";
    static final String QUEUE_DENIED = NO_ENTRY + "You are not allowed to change queue settings here.";
    static final String NEW_CONVERSATION = GEAR + "Started a new conversation.";

    private static final String OPTIONS = "Options: modes steer, followup, collect, steer-backlog, interrupt; "
            + "debounce:<ms|s|m>, cap:<n>, drop:old|new|summarize.";

    private Replies() {
    }

    /**
     * The {@code /queue} show reply: the effective settings, then the options line. {@code perSender}:
     * a group sender's part of the cap, shown after it when not 0 (docs/behaviour.md §6.3).
     */
    static String show(QueueSettings settings, int perSender) {
        return "Current queue settings: " + describe(settings, perSender) + "\n" + OPTIONS;
    }

    /** {@code mode=collect, debounce=1000ms, cap=20, drop=summarize.} */
    static String describe(QueueSettings settings) {
        return describe(settings, 0);
    }

    /** {@code mode=collect, debounce=1000ms, cap=20 (10 per sender), drop=summarize.}; no part when 0. */
    static String describe(QueueSettings settings, int perSender) {
        return "mode=" + settings.mode().id()
                + ", debounce=" + settings.debounce().toMillis() + "ms"
                + ", cap=" + settings.cap() + (perSender > 0 ? " (" + perSender + " per sender)" : "")
                + ", drop=" + settings.drop().id() + ".";
    }

    /** One sentence per field the command set, in the order mode, debounce, cap, drop. */
    static String set(QueueOverride changed) {
        List<String> parts = new ArrayList<>(4);
        if (changed.mode() != null) {
            parts.add(GEAR + "Queue mode set to " + changed.mode().id() + ".");
        }
        if (changed.debounce() != null) {
            parts.add(GEAR + "Queue debounce set to " + changed.debounce().toMillis() + "ms.");
        }
        if (changed.cap() != null) {
            parts.add(GEAR + "Queue cap set to " + changed.cap() + ".");
        }
        if (changed.drop() != null) {
            parts.add(GEAR + "Queue drop set to " + changed.drop().id() + ".");
        }
        return String.join(" ", parts);
    }

    /** {@code ⛔ You are not allowed to use /stop here.} for a run-control command refused in a group. */
    static String denied(String command) {
        return NO_ENTRY + "You are not allowed to use /" + command + " here.";
    }

    /** {@code /stop}: {@code ⚙️ Agent was aborted.}, plus the cleared count when there was any. */
    static String stopped(int cleared) {
        String reply = GEAR + "Agent was aborted.";
        return cleared > 0 ? reply + " Cleared " + cleared + " queued message(s)." : reply;
    }
}
