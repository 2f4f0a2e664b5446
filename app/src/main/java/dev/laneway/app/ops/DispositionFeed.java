package dev.laneway.app.ops;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.engine.DispositionListener;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The operator console's stream of recent message dispositions (docs/behaviour.md §18), fed by the
 * engine's disposition hook ({@link DispositionListener}, part of the {@code GatewayObserver} SPI):
 * the last {@value #CAPACITY} in a ring, each with a sequence number a console reads on from.
 *
 * <p>Cheap when nobody watches: a disposition costs one small record and a few instructions under
 * {@code lock}; the console's stream is only woken ({@link #onRecorded}) when one is open.
 *
 * <p>Concurrency: {@code lock} guards {@code ring} and {@code next}; it is held only to copy a
 * reference in or out, never while calling anything. Called from engine threads, never under a
 * session lock; must not block, and does not.
 */
public final class DispositionFeed implements DispositionListener {

    /** How many dispositions the ring keeps. */
    public static final int CAPACITY = 200;

    /**
     * One disposition as the console shows it; {@code text} is the message's text, sent to a console
     * only with the admin token (docs/behaviour.md §18).
     *
     * @param seq         1, 2, ... in the order recorded
     * @param at          when it was recorded (epoch millis)
     * @param receivedAt  when the gateway received the message (epoch millis)
     */
    public record Entry(long seq, long at, long receivedAt, String channel, String chat, String sender,
                        String disposition, String text) {

        /** This entry without its message text. */
        Entry withoutText() {
            return new Entry(seq, at, receivedAt, channel, chat, sender, disposition, null);
        }
    }

    private final InstantSource clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Entry[] ring = new Entry[CAPACITY]; // guarded by lock
    private long next = 1;                             // guarded by lock: the next entry's seq
    private final LongAdder recorded = new LongAdder();
    private volatile Runnable onRecorded = () -> { };

    public DispositionFeed(InstantSource clock) {
        this.clock = clock;
    }

    /** Called after every disposition (from engine threads; must not block): the console stream's wake-up. */
    void onRecorded(Runnable wake) {
        this.onRecorded = wake;
    }

    @Override
    public void recorded(InboundMessage message, Disposition disposition) {
        long now = clock.millis();
        lock.lock();
        try {
            long seq = next++;
            ring[(int) (seq % CAPACITY)] = new Entry(seq, now, message.receivedAt().toEpochMilli(), message.channel(),
                    message.chatId(), message.senderName() == null || message.senderName().isBlank()
                    ? message.senderId() : message.senderName(), disposition.name(), message.text());
        } finally {
            lock.unlock();
        }
        recorded.increment();
        onRecorded.run();
    }

    /** Every disposition recorded since start (the throughput chart's counter). */
    long total() {
        return recorded.sum();
    }

    /** The entries after {@code seq} still in the ring, oldest first. */
    List<Entry> after(long seq) {
        lock.lock();
        try {
            long from = Math.max(seq + 1, next - CAPACITY);
            List<Entry> entries = new ArrayList<>((int) Math.max(0, next - from));
            for (long s = from; s < next; s++) {
                entries.add(ring[(int) (s % CAPACITY)]);
            }
            return entries;
        } finally {
            lock.unlock();
        }
    }

    /** The sequence number of the newest entry (0 before the first). */
    long last() {
        lock.lock();
        try {
            return next - 1;
        } finally {
            lock.unlock();
        }
    }
}
