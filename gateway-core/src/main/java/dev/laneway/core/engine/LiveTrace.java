package dev.laneway.core.engine;

import dev.laneway.core.Route;
import dev.laneway.core.store.LiveMessage;
import dev.laneway.core.store.MessageJournal;

/**
 * Where a streamed answer's live messages are recorded: in the journal, against the message the
 * answer answers, so that a restart after a crash can mark them interrupted (docs/behaviour.md
 * §16.3). The journal forgets them when that message ends. Immutable; the journal is thread-safe.
 *
 * @param seq   the journal entry answered (the run's first message)
 * @param route the chat the answer streams to
 */
record LiveTrace(MessageJournal journal, long seq, Route route) {

    /** Message {@code id} now shows {@code text}: recorded, replacing what was recorded for it. */
    void shown(String id, String text) {
        journal.liveShown(new LiveMessage(seq, route, id, text));
    }

    /** Message {@code id} no longer needs a mark after a crash. */
    void gone(String id) {
        journal.liveGone(seq, id);
    }
}
