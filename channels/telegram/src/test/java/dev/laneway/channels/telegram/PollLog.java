package dev.laneway.channels.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@code getUpdates} requests a {@link FakeBotApi} received, in arrival order, recorded when
 * each arrives (before the server holds it), and ways to wait for the next ones. The SDK polls
 * again only after its handler has consumed the previous batch, so "a poll asked for an offset past
 * update N" is the event that says the handler has taken or skipped update N. Thread-safe.
 */
final class PollLog {

    private final List<Poll> polls = new CopyOnWriteArrayList<>();

    /** One {@code getUpdates} request: its JSON body and when it arrived ({@link System#nanoTime}). */
    record Poll(JsonNode body, long arrivedNanos) {
        long offset() {
            return body.path("offset").asLong(0);
        }

        Duration before(Poll later) {
            return Duration.ofNanos(later.arrivedNanos - arrivedNanos);
        }
    }

    void arrived(JsonNode body) {
        polls.add(new Poll(body, System.nanoTime()));
    }

    List<Poll> all() {
        return List.copyOf(polls);
    }

    int count() {
        return polls.size();
    }

    /** Waits for the {@code index}-th request (from 0) and returns it. */
    Poll await(int index) {
        return Await.value("getUpdates request #" + index, () -> polls.size() > index ? polls.get(index) : null);
    }

    /** Waits for the first request that asks for an offset above {@code updateId}; returns its index. */
    int awaitOffsetPast(long updateId) {
        return Await.value("a getUpdates with an offset past update " + updateId, () -> {
            for (int i = 0; i < polls.size(); i++) {
                if (polls.get(i).offset() > updateId) {
                    return i;
                }
            }
            return null;
        });
    }
}
