package dev.laneway.bench;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.SessionKey;
import java.time.Instant;

/**
 * The benchmark's chats: session {@code i} is a DM from sender {@code u<i>} on the channel
 * {@code bench}, so its session key is {@code bench:dm:u<i>} and hooks can find {@code i} again
 * from the sender id. Messages carry no platform id unless asked, so dedupe is skipped.
 */
final class BenchSessions {

    static final String CHANNEL = "bench";

    private BenchSessions() {
    }

    static InboundMessage message(int session) {
        return message(session, null);
    }

    /** A short DM from session {@code session}; {@code platformMessageId} may be null. */
    static InboundMessage message(int session, String platformMessageId) {
        return builder(session, platformMessageId).build();
    }

    /** The same, received at {@code receivedAt} (restore drops messages older than the queue TTL). */
    static InboundMessage message(int session, String platformMessageId, Instant receivedAt) {
        return builder(session, platformMessageId).receivedAt(receivedAt).build();
    }

    private static InboundMessage.Builder builder(int session, String platformMessageId) {
        return InboundMessage.builder(CHANNEL)
                .chatId("c" + session)
                .senderId("u" + session)
                .text("hello from " + session)
                .platformMessageId(platformMessageId);
    }

    static InboundMessage[] messages(int sessions) {
        InboundMessage[] messages = new InboundMessage[sessions];
        for (int i = 0; i < sessions; i++) {
            messages[i] = message(i);
        }
        return messages;
    }

    static SessionKey key(int session) {
        return SessionKey.of(CHANNEL + ":dm:u" + session);
    }

    /** The session index of a sender id {@code u<i>}. */
    static int index(String senderId) {
        return Integer.parseInt(senderId, 1, senderId.length(), 10);
    }
}
