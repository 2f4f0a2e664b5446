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

    static final String INFO = "\u2139\uFE0F ";
    static final String NOTHING_QUEUED = INFO + "You have no messages waiting in the queue.";
    static final String CANCEL_DENIED = NO_ENTRY + "You are not allowed to cancel other people's messages here.";
    /** The longest preview of a queued message in {@code /queue status}. */
    static final int PREVIEW = 40;

    /**
     * {@code /queue status}: {@code ℹ️ You have 2 message(s) waiting: #1 "hello", #4 "and this".}
     * (a preview longer than 40 characters ends in {@code …}), or {@link #NOTHING_QUEUED}.
     */
    static String queued(List<dev.laneway.core.command.QueuedMessage> queued) {
        if (queued.isEmpty()) {
            return NOTHING_QUEUED;
        }
        List<String> parts = new ArrayList<>();
        for (dev.laneway.core.command.QueuedMessage message : queued) {
            parts.add("#" + message.position() + " \"" + preview(message.text()) + "\"");
        }
        return INFO + "You have " + queued.size() + " message(s) waiting: " + String.join(", ", parts) + ".";
    }

    private static String preview(String text) {
        String flat = text.strip().replaceAll("\\s+", " ");
        if (flat.length() <= PREVIEW) {
            return flat;
        }
        int end = Character.isHighSurrogate(flat.charAt(PREVIEW - 1)) ? PREVIEW - 1 : PREVIEW;
        return flat.substring(0, end) + "…";
    }

    /** {@code /queue cancel}: how many were dropped; {@link #NOTHING_QUEUED} when none of one's own. */
    static String cancelled(int count, boolean everyone) {
        if (everyone) {
            return GEAR + "Cancelled " + count + " queued message(s) in this conversation; they will not be answered.";
        }
        return count == 0 ? NOTHING_QUEUED
                : GEAR + "Cancelled " + count + " queued message(s) of yours; they will not be answered.";
    }

    /** {@code /stop}: {@code ⚙️ Agent was aborted.}, plus the cleared count when there was any. */
    static String stopped(int cleared) {
        String reply = GEAR + "Agent was aborted.";
        return cleared > 0 ? reply + " Cleared " + cleared + " queued message(s)." : reply;
    }
}
