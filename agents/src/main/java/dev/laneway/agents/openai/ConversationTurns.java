package dev.laneway.agents.openai;

import dev.laneway.core.SessionKey;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.SessionStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps a turn that began before {@code /new} out of the new conversation: a run opens a
 * {@link Turn} when it starts and saves its history through {@link #save}; {@link #reset} marks
 * every open turn of the session stale and clears the stored history.
 *
 * <p>Concurrency: {@code lock} guards {@code open} and every turn's {@code stale} flag. Clearing
 * and appending a session's history both happen under it, so they are totally ordered: a save
 * either comes before the reset (and the reset's clear wipes it) or finds its turn stale and
 * writes nothing. The store calls made under the lock only queue a write (SQLite store) or touch
 * memory (in-memory store); they never wait for the disk. Only sessions with a turn in flight have
 * an entry, so the map stays as small as the number of running turns.
 */
final class ConversationTurns {

    /** One run's claim to append to its session's history. */
    static final class Turn {
        private final SessionKey session;
        private boolean stale;   // guarded by lock
        private boolean closed;  // guarded by lock

        private Turn(SessionKey session) {
            this.session = session;
        }
    }

    private final SessionStore store;
    private final ReentrantLock lock = new ReentrantLock();
    // session -> its turns that began and have not yet saved or ended
    private final Map<SessionKey, List<Turn>> open = new HashMap<>();

    ConversationTurns(SessionStore store) {
        this.store = store;
    }

    Turn begin(SessionKey session) {
        Turn turn = new Turn(session);
        lock.lock();
        try {
            open.computeIfAbsent(session, s -> new ArrayList<>(1)).add(turn);
        } finally {
            lock.unlock();
        }
        return turn;
    }

    /**
     * Appends the turn's entries unless the conversation was reset after the turn began, and ends
     * the turn. Returns whether they were appended.
     */
    boolean save(Turn turn, List<HistoryEntry> entries) {
        lock.lock();
        try {
            boolean fresh = !turn.stale && !turn.closed;
            end(turn);
            if (fresh && !entries.isEmpty()) {
                store.appendHistory(turn.session, entries);
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Ends a turn that saves nothing; harmless after {@link #save}. */
    void close(Turn turn) {
        lock.lock();
        try {
            end(turn);
        } finally {
            lock.unlock();
        }
    }

    /** {@code /new}: forgets the session's history; turns already running will not add to the new one. */
    void reset(SessionKey session) {
        lock.lock();
        try {
            for (Turn turn : open.getOrDefault(session, List.of())) {
                turn.stale = true;
            }
            store.clearHistory(session);
        } finally {
            lock.unlock();
        }
    }

    /** Turns in flight (tests). */
    int openTurns() {
        lock.lock();
        try {
            return open.values().stream().mapToInt(List::size).sum();
        } finally {
            lock.unlock();
        }
    }

    private void end(Turn turn) {
        if (turn.closed) {
            return;
        }
        turn.closed = true;
        List<Turn> turns = open.get(turn.session);
        if (turns != null) {
            turns.remove(turn);
            if (turns.isEmpty()) {
                open.remove(turn.session);
            }
        }
    }
}
