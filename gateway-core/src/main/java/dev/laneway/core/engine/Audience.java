package dev.laneway.core.engine;

import dev.laneway.core.Route;

/**
 * Who a turn speaks for and to: one conversation (channel, account, chat, thread; no reply target)
 * and one sender authority. Items of different audiences never share a turn, and neither do their
 * overflow summaries (docs/behaviour.md §1: "a guest's text never runs with an admin's permissions").
 *
 * @param conversation the conversation, with {@code replyToMessageId} null
 * @param trusted      the senders' authority (see {@link Authorization})
 */
record Audience(Route conversation, boolean trusted) {

    /** The audience of a message to {@code route} from a sender with authority {@code trusted}. */
    static Audience of(Route route, boolean trusted) {
        return new Audience(route.replyingTo(null), trusted);
    }
}
