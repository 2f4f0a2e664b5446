package dev.laneway.app.ops;

import com.sun.net.httpserver.HttpExchange;
import dev.laneway.core.time.Scheduler;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's server-sent events ({@code GET /events}, docs/behaviour.md §18): a {@code snapshot}
 * event about once a second and a {@code disposition} event for each message that ends, as it ends.
 *
 * <p>One ticker (a {@link Scheduler} task each {@link #TICK}) samples the charts and, only while a
 * console is open, hands the building of one snapshot to the executor; every open console writes
 * that same snapshot, so ten consoles cost one snapshot a second, not ten. A disposition wakes the
 * consoles at once (only while one is open: otherwise it costs a volatile read).
 *
 * <p>Concurrency: each console is served on its own request thread (virtual), which waits on
 * {@code changed}. {@code lock} guards {@code latest}, {@code version}, {@code pokes} and
 * {@code closed}; it is held only to swap or read them, never while writing to a socket or building
 * a snapshot. {@code ticker} is guarded by {@code lock} too.
 */
final class ConsoleStream implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConsoleStream.class);

    /** How often snapshots are sent and the charts sampled. */
    static final Duration TICK = Duration.ofSeconds(1);
    /** A comment line this often keeps proxies from closing a quiet stream and finds consoles that left. */
    static final Duration HEARTBEAT = Duration.ofSeconds(15);
    /** How many recent dispositions a console gets when it connects. */
    static final int BACKLOG = 50;

    private final Function<Boolean, ConsoleView> views; // true: every chart point, for a console's first snapshot
    private final DispositionFeed feed;
    private final ConsoleHistory history;
    private final Scheduler scheduler;
    private final Executor executor;
    private final AtomicInteger watchers = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private String latest;                       // guarded by lock: the newest snapshot's JSON, or null
    private long version;                        // guarded by lock: bumped with every snapshot
    private long pokes;                          // guarded by lock: bumped with every disposition while watched
    private boolean closed;                      // guarded by lock
    private Cancellable ticker = Cancellable.NONE; // guarded by lock

    ConsoleStream(Function<Boolean, ConsoleView> views, DispositionFeed feed, ConsoleHistory history, Scheduler scheduler,
                  Executor executor) {
        this.views = views;
        this.feed = feed;
        this.history = history;
        this.scheduler = scheduler;
        this.executor = executor;
        feed.onRecorded(this::poke);
    }

    /** Starts the ticker (the charts fill from now on, watched or not); idempotent. */
    void start() {
        lock.lock();
        try {
            if (closed || ticker != Cancellable.NONE) {
                return;
            }
            ticker = scheduler.schedule(TICK, this::tick);
        } finally {
            lock.unlock();
        }
    }

    /** How many consoles are open now. */
    int watchers() {
        return watchers.get();
    }

    private void tick() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            ticker = scheduler.schedule(TICK, this::tick);
        } finally {
            lock.unlock();
        }
        history.sample();
        if (watchers.get() > 0) {
            try {
                executor.execute(this::publish);
            } catch (RejectedExecutionException e) {
                // shutting down: the consoles are about to be cut off
            }
        }
    }

    /** Builds one snapshot and wakes every console to send it. */
    void publish() {
        String json;
        try {
            json = Json.line(views.apply(false));
        } catch (RuntimeException e) {
            log.warn("ops: the console's snapshot could not be built", e);
            return;
        }
        lock.lock();
        try {
            latest = json;
            version++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A disposition was recorded (an engine thread; must not block). */
    private void poke() {
        if (watchers.get() == 0) {
            return;
        }
        lock.lock();
        try {
            pokes++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Serves one console until it goes away or the server stops, on the request's own thread.
     *
     * @param withText whether disposition events carry the message text (the request proved the admin token)
     */
    void serve(HttpExchange exchange, boolean withText) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        exchange.sendResponseHeaders(200, 0);
        watchers.incrementAndGet();
        try (OutputStream out = exchange.getResponseBody()) {
            write(out, "retry: 2000\n\n");
            write(out, event("snapshot", Json.line(views.apply(true))));
            long seq = Math.max(0, feed.last() - BACKLOG);
            seq = sendDispositions(out, seq, withText);
            long seen;
            long seenPokes;
            lock.lock();
            try {
                seen = version;
                seenPokes = pokes;
            } finally {
                lock.unlock();
            }
            while (true) {
                String snapshot = null;
                boolean quiet;
                lock.lock();
                try {
                    long waitNanos = HEARTBEAT.toNanos();
                    while (!closed && version == seen && pokes == seenPokes && waitNanos > 0) {
                        waitNanos = changed.awaitNanos(waitNanos);
                    }
                    if (closed) {
                        return;
                    }
                    quiet = version == seen && pokes == seenPokes;
                    if (version != seen) {
                        snapshot = latest;
                        seen = version;
                    }
                    seenPokes = pokes;
                } finally {
                    lock.unlock();
                }
                seq = sendDispositions(out, seq, withText);
                if (snapshot != null) {
                    write(out, event("snapshot", snapshot));
                }
                if (quiet) {
                    write(out, ": ping\n\n");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            log.debug("ops: a console left ({})", e.toString());
        } finally {
            watchers.decrementAndGet();
        }
    }

    private long sendDispositions(OutputStream out, long after, boolean withText) throws IOException {
        List<DispositionFeed.Entry> entries = feed.after(after);
        if (entries.isEmpty()) {
            return after;
        }
        StringBuilder events = new StringBuilder();
        for (DispositionFeed.Entry entry : entries) {
            events.append(event("disposition", Json.line(withText ? entry : entry.withoutText())));
        }
        write(out, events.toString());
        return entries.getLast().seq();
    }

    private static String event(String name, String data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Stops the ticker and ends every open stream; idempotent. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            ticker.cancel();
            ticker = Cancellable.NONE;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
