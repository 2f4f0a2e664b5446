package dev.laneway.core.engine;

import dev.laneway.core.channel.TextChunker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One reply of a run, shown while the model writes it (docs/behaviour.md §16): the text so far,
 * the messages that show it, and what the chat's outbox must do next to make them show it. The
 * display is the text chunked by the one {@link TextChunker} at the channel's limit: message
 * {@code i} shows chunk {@code i}, so a text that outgrows one message continues in a new one at a
 * chunk boundary, never inside a code fence. Once the reply is complete ({@link #finish}) the
 * messages are brought to exactly its chunks, which is what a non-streamed answer sends.
 *
 * <p>Degraded: an edit the platform refused or rate limited is not tried again; the messages keep
 * what they show, and once the reply is complete the rest of it (from where the reply's own text that
 * the messages show ends, a code fence open there reopened: see {@link #covered}) goes as new
 * messages: nothing lost, nothing twice.
 *
 * <p>Durable trace: with a {@link LiveTrace}, the segment's last message and what it shows are
 * recorded in the journal after each platform call ({@link #record}), until the reply is shown
 * whole, marked or degraded, so a restart after a crash can mark that message interrupted
 * ({@link #orphan}, docs/behaviour.md §16.3).
 *
 * <p>Concurrency: {@code lock} guards every field. The agent's thread appends ({@link #append},
 * {@link #finish}); the one thread that owns the chat in the outbox asks {@link #next} and
 * records what it did ({@link #done}, {@link #record}), outside the lock in between; the executor
 * ends it ({@link #end}). Never held while calling anything else (the trace's journal included).
 */
final class LiveSegment {

    /** The progress line shown while a tool runs: {@code 🔧 current_time…}. */
    static String toolLine(String tool) {
        return "🔧 " + tool + "…";
    }

    /** What the outbox does next for the segment. */
    sealed interface Op {
        /**
         * Send {@code text} as a new message: the chunk of {@code source} (what the segment
         * displayed) that takes it from {@code start} to {@code end}.
         */
        record Post(String text, String source, int start, int end) implements Op {
        }

        /** Change message {@code index} (platform id {@code id}) to {@code text}, cut from {@code source} as for a post. */
        record Edit(int index, String id, String text, String source, int start, int end) implements Op {
        }

        /**
         * Send {@code text} as a message the chat keeps: the final text of draft {@code index} (its id
         * {@code id}), or, with index -1 and no id, a message of a degraded reply's rest.
         */
        record Keep(int index, String id, String text, String source, int start, int end) implements Op {
        }
    }

    /**
     * A message the segment sent: its platform id (null: it cannot be edited), text, and the
     * display it was cut from ({@code source}, null: none of the reply) with where in it its part
     * starts and ends. Positions are in {@code source}, not in the complete reply: a display held a
     * tool line or an attempt's text the reply may not have.
     */
    private record Shown(String id, String text, String source, int start, int end, boolean draft,
                         boolean finishes) {

        Shown(String id, String text, String source, int start, int end) {
            this(id, text, source, start, end, false, false);
        }

        Shown with(String id, String text, String source, int start, int end) {
            return new Shown(id, text, source, start, end, draft, finishes);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final LiveTrace trace;   // where the last message is recorded durably, or null
    private String recordedId;       // the message the trace holds now, or null
    private String recordedText;     // what it was recorded showing
    private final StringBuilder text = new StringBuilder(); // the reply so far
    private int room;                // characters the reply may still take (messages.maxAnswerChars)
    private String complete;         // the whole reply, once known; then text no longer grows
    private String tool;             // a tool running now (its progress line shows), or null
    private String mark;             // the run ended before this reply was shown whole: the mark its text gets
    private final List<Shown> shown = new ArrayList<>();
    private boolean degraded;        // no more edits: the rest goes as new messages
    private List<TextChunker.Chunk> rest; // degraded and complete: the rest, chunked
    private int restSent;
    private boolean shownWhole;      // the messages show the complete reply (or its mark)
    private boolean updatePending;   // an update is queued in the outbox or waits on a timer
    private Instant lastUpdate;      // when the outbox last took an update

    LiveSegment(int room) {
        this(room, null);
    }

    /** @param trace where its last message is recorded durably (null: nowhere) */
    LiveSegment(int room, LiveTrace trace) {
        this.room = room;
        this.trace = trace;
    }

    /**
     * A live message left over from before a restart (docs/behaviour.md §16.3): it shows
     * {@code shownText} as message {@code id}, and its one update brings it to that text (a tool
     * progress line dropped) followed by {@code mark}, as a run that ended mid-stream marks it.
     */
    static LiveSegment orphan(String id, String shownText, String mark) {
        LiveSegment segment = new LiveSegment(0);
        segment.shown.add(new Shown(id, shownText, null, 0, 0));
        segment.text.append(withoutToolLine(shownText));
        segment.mark = mark;
        return segment;
    }

    /** A message's text without the tool progress line it ends with, if any. */
    static String withoutToolLine(String shownText) {
        int at = shownText.lastIndexOf("🔧 ");
        if (at < 0 || !shownText.endsWith("…") || shownText.indexOf('\n', at) >= 0
                || at > 0 && !shownText.startsWith("\n\n", at - 2)) {
            return shownText;
        }
        return shownText.substring(0, at).stripTrailing();
    }

    /**
     * Adds streamed text (up to the answer's bound). True when the caller must arrange an update:
     * none is pending yet.
     */
    boolean append(String delta) {
        lock.lock();
        try {
            if (complete != null || mark != null) {
                return false;
            }
            String taken = delta.length() <= room ? delta : delta.substring(0, Math.max(0, room));
            room -= taken.length();
            text.append(taken);
            tool = null;
            return claimUpdate();
        } finally {
            lock.unlock();
        }
    }

    /** A tool started ({@code name}) or ended (null); true when the caller must arrange an update. */
    boolean tool(String name) {
        lock.lock();
        try {
            if (complete != null || mark != null || (name == null && tool == null)) {
                return false;
            }
            tool = name;
            return claimUpdate();
        } finally {
            lock.unlock();
        }
    }

    /** The model call is being tried again: what it wrote so far is replaced by what it writes next. */
    void restart() {
        lock.lock();
        try {
            if (complete == null) {
                room += text.length();
                text.setLength(0);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether anything was streamed into the segment (text or a tool line). */
    boolean started() {
        lock.lock();
        try {
            return !text.isEmpty() || tool != null || !shown.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** The reply is complete: the messages are to show exactly {@code reply}. */
    void finish(String reply) {
        lock.lock();
        try {
            complete = reply;
            tool = null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The run ended. A segment not yet shown whole gets {@code mark} after its text: one the run
     * never finished, and, when {@code aborted}, one whose complete reply was not sent (a stop drops
     * it). True when an update must show the mark (something of it is shown already).
     */
    boolean end(String mark, boolean aborted) {
        lock.lock();
        try {
            if (shownWhole || this.mark != null || (complete != null && !aborted)) {
                return false;
            }
            complete = null;
            tool = null;
            this.mark = mark;
            return !shown.isEmpty() && !degraded;
        } finally {
            lock.unlock();
        }
    }

    /** How long the next update waits: the rest of {@code minInterval} since the last one. */
    Duration delay(Instant now, Duration minInterval) {
        lock.lock();
        try {
            if (lastUpdate == null) {
                return Duration.ZERO;
            }
            Duration since = Duration.between(lastUpdate, now);
            return since.compareTo(minInterval) >= 0 ? Duration.ZERO : minInterval.minus(since);
        } finally {
            lock.unlock();
        }
    }

    /** The outbox took an update at {@code now}: a later change arranges a new one. */
    void taken(Instant now) {
        lock.lock();
        try {
            updatePending = false;
            lastUpdate = now;
        } finally {
            lock.unlock();
        }
    }

    /** What to do next so the messages show the segment, at {@code limit} characters a message; null: nothing. */
    Op next(int limit) {
        lock.lock();
        try {
            if (!degraded) {
                String display = display();
                List<TextChunker.Chunk> target = TextChunker.chunks(display, limit);
                for (int i = 0; i < target.size(); i++) {
                    TextChunker.Chunk chunk = target.get(i);
                    int start = i == 0 ? 0 : target.get(i - 1).end();
                    if (i >= shown.size()) {
                        return new Op.Post(chunk.text(), display, start, chunk.end());
                    }
                    Shown message = shown.get(i);
                    if (message.finishes() && settled()) {
                        // a draft or a stream is finished: its final text goes as a message, or stops the stream
                        // (docs/behaviour.md §16.1)
                        return new Op.Keep(i, message.id(), chunk.text(), display, start, chunk.end());
                    }
                    if (!message.text().equals(chunk.text())) {
                        if (message.id() == null) {
                            degraded = true; // it cannot be changed: the rest goes as new messages
                            return next(limit);
                        }
                        return new Op.Edit(i, message.id(), chunk.text(), display, start, chunk.end());
                    }
                }
                if (settled()) {
                    // the whole text takes fewer messages than were shown (a retried model call wrote less)
                    for (int i = target.size(); i < shown.size(); i++) {
                        Shown message = shown.get(i);
                        if (message.finishes() && !message.draft()) {
                            return new Op.Keep(i, message.id(), EMPTIED, null, 0, 0); // a stream is stopped so
                        }
                        if (message.id() != null && !message.draft() && !message.text().equals(EMPTIED)) {
                            return new Op.Edit(i, message.id(), EMPTIED, null, 0, 0);
                        }
                    }
                }
                return null;
            }
            if (complete == null) {
                return null; // degraded: the rest goes once the reply is complete
            }
            for (int i = 0; i < shown.size(); i++) {
                Shown message = shown.get(i);
                if (message.finishes() && !message.draft()) {
                    // a stream the chat keeps is stopped as it is; the rest follows it
                    return new Op.Keep(i, message.id(), message.text(), message.source(), message.start(), message.end());
                }
            }
            if (rest == null) {
                int covered = covered();
                String tail = complete.substring(covered).stripLeading();
                String fence = tail.isEmpty() ? null : TextChunker.openFenceAt(complete, covered);
                rest = TextChunker.chunks(fence == null ? tail : fence + "\n" + tail, limit);
            }
            return restSent < rest.size() ? new Op.Keep(-1, null, rest.get(restSent).text(), null, 0, complete.length())
                    : null;
        } finally {
            lock.unlock();
        }
    }

    /** The text a message that no longer has a part of the reply shows. */
    static final String EMPTIED = "…";

    /** {@code op} went; {@code id}: the new message's platform id (null: unknown or not editable). */
    void done(Op op, String id) {
        done(op, id, false);
    }

    /** As {@link #done(Op, String)}; {@code draft}: a posted message is a draft the chat does not keep. */
    void done(Op op, String id, boolean draft) {
        done(op, id, draft, draft);
    }

    /**
     * As {@link #done(Op, String, boolean)}; {@code finishes}: a posted message must be finished by a
     * {@link Op.Keep} once its text is final (a draft, or a stream).
     */
    void done(Op op, String id, boolean draft, boolean finishes) {
        lock.lock();
        try {
            switch (op) {
                case Op.Post post -> {
                    if (degraded) {
                        restSent++;
                    } else {
                        shown.add(new Shown(id, post.text(), post.source(), post.start(), post.end(), draft,
                                finishes));
                    }
                }
                case Op.Edit edit -> shown.set(edit.index(), shown.get(edit.index()).with(edit.id(), edit.text(),
                        edit.source(), edit.start(), edit.end()));
                case Op.Keep keep -> {
                    if (keep.index() < 0) {
                        restSent++;
                    } else {
                        shown.set(keep.index(), new Shown(id, keep.text(), keep.source(), keep.start(), keep.end()));
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * After a platform call of the outbox (the chat's owner, no lock held): the trace is brought to
     * the segment's last message and its text, or emptied once the reply is shown whole, marked or
     * degraded (no mark after a crash is due then).
     */
    void record() {
        if (trace == null) {
            return;
        }
        String drop = null;
        String putId = null;
        String putText = null;
        lock.lock();
        try {
            Shown last = shown.isEmpty() ? null : shown.get(shown.size() - 1);
            // a draft needs no mark after a crash: the chat does not keep it
            boolean keep = last != null && last.id() != null && !last.draft() && !degraded && !settled();
            if (recordedId != null && (!keep || !recordedId.equals(last.id()))) {
                drop = recordedId;
                recordedId = null;
                recordedText = null;
            }
            if (keep && !(last.id().equals(recordedId) && last.text().equals(recordedText))) {
                putId = last.id();
                putText = last.text();
                recordedId = putId;
                recordedText = putText;
            }
        } finally {
            lock.unlock();
        }
        if (drop != null) {
            trace.gone(drop);
        }
        if (putId != null) {
            trace.shown(putId, putText);
        }
    }

    /** An edit was refused or rate limited: no more edits; the rest goes as new messages. */
    void degrade() {
        lock.lock();
        try {
            degraded = true;
        } finally {
            lock.unlock();
        }
    }

    /** The outbox found nothing left to do after the reply was complete (or marked). */
    void shownWhole() {
        lock.lock();
        try {
            if (settled()) {
                shownWhole = true;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * How much of the complete reply the messages show, from its start: message by message, the part
     * of its display that the reply holds at the same place, as long as each message carries on where
     * the ones before it stopped. A message that showed only a tool line, or an earlier attempt's
     * text, covers nothing of it; nothing matching: 0 (lock held). So the rest, from there, loses
     * nothing and repeats nothing (docs/behaviour.md §16).
     */
    private int covered() {
        int covered = 0;
        for (Shown message : shown) {
            if (message.source() == null || message.draft() || message.start() > covered) {
                break; // it shows none of the reply (a draft is not kept), or a gap lies before it
            }
            int end = Math.min(message.end(), complete.length());
            int same = 0;
            while (same < end && message.source().charAt(same) == complete.charAt(same)) {
                same++;
            }
            if (same <= covered) {
                break;
            }
            covered = same;
            if (same < message.end()) {
                break; // it differs from the reply from here: later messages follow what it shows
            }
        }
        return covered;
    }

    /** Whether the segment will not change any more: complete, or marked (lock held). */
    private boolean settled() {
        return complete != null || mark != null;
    }

    /** What the messages are to show (lock held). */
    private String display() {
        if (complete != null) {
            return complete;
        }
        String body = text.toString();
        String extra = mark != null ? mark : tool != null ? toolLine(tool) : null;
        if (extra == null) {
            return body;
        }
        return body.isBlank() ? extra : body.stripTrailing() + "\n\n" + extra;
    }

    /** Marks an update as pending; true when none was (lock held). */
    private boolean claimUpdate() {
        if (updatePending) {
            return false;
        }
        updatePending = true;
        return true;
    }
}
