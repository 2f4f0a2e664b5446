package dev.laneway.core.engine;

import dev.laneway.core.Route;

/**
 * Who a turn speaks for and to: one conversation (channel, account, chat, thread; no reply target)
 * and one sender authority. Items of different audiences never share a turn, and neither do their
 * overflow summaries (docs/behaviour.md §1: "a guest's text never runs with an admin's permissions").
 * A scheduled job's prompt is an audience of its own in its chat, so it is never steered into,
 * batched with, or steered by the chat's users (docs/behaviour.md §12).
 *
 * @param conversation the conversation, with {@code replyToMessageId} null
 * @param trusted      the senders' authority (see {@link Authorization})
 * @param scheduled    whether it speaks for a scheduled job rather than the chat's users
 */
record Audience(Route conversation, boolean trusted, boolean scheduled) {

    /** The audience of a message to {@code route} from a sender with authority {@code trusted}. */
    static Audience of(Route route, boolean trusted) {
        return of(route, trusted, false);
    }

    /** As {@link #of(Route, boolean)}, for a scheduled job's prompt when {@code scheduled}. */
    static Audience of(Route route, boolean trusted, boolean scheduled) {
        return new Audience(route.replyingTo(null), trusted, scheduled);
    }
}
