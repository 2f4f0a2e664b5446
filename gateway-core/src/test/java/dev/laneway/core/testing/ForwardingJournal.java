package dev.laneway.core.testing;

import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.LiveMessage;
import dev.laneway.core.store.MessageJournal;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A journal that hands every call to another one; a test overrides just the call it wants to fail
 * or watch ({@code new ForwardingJournal(MessageJournal.NONE) { append -> failed future }}).
 */
public class ForwardingJournal implements MessageJournal {

    private final MessageJournal delegate;

    public ForwardingJournal(MessageJournal delegate) {
        this.delegate = delegate;
    }

    @Override
    public CompletableFuture<Void> append(JournalEntry entry) {
        return delegate.append(entry);
    }

    @Override
    public void settled(long seq, boolean answered) {
        delegate.settled(seq, answered);
    }

    @Override
    public List<JournalEntry> pending() {
        return delegate.pending();
    }

    @Override
    public boolean seen(String messageKey) {
        return delegate.seen(messageKey);
    }

    @Override
    public long lastSequence() {
        return delegate.lastSequence();
    }

    @Override
    public void liveShown(LiveMessage message) {
        delegate.liveShown(message);
    }

    @Override
    public void liveGone(long seq, String messageId) {
        delegate.liveGone(seq, messageId);
    }

    @Override
    public List<LiveMessage> liveMessages(Collection<Long> seqs) {
        return delegate.liveMessages(seqs);
    }
}
