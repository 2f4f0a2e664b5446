package dev.laneway.agents.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.SessionKey;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.InMemorySessionStore;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConversationTurnsTest {

    private static final SessionKey CHAT = SessionKey.of("chat-1");
    private static final SessionKey OTHER = SessionKey.of("chat-2");
    private static final List<HistoryEntry> ENTRIES = List.of(new HistoryEntry("user", "hi"));

    private final InMemorySessionStore store = new InMemorySessionStore();
    private final ConversationTurns turns = new ConversationTurns(store);

    @Test
    void aTurnBegunBeforeTheReset_savesNothing_whileOtherSessionsAreUntouched() {
        ConversationTurns.Turn old = turns.begin(CHAT);
        ConversationTurns.Turn elsewhere = turns.begin(OTHER);

        turns.reset(CHAT);

        assertFalse(turns.save(old, ENTRIES));
        assertTrue(turns.save(elsewhere, ENTRIES));
        assertEquals(List.of(), store.history(CHAT, 10));
        assertEquals(ENTRIES, store.history(OTHER, 10));
    }

    @Test
    void finishedTurns_areForgotten_andSavingTwiceWritesOnce() {
        ConversationTurns.Turn saved = turns.begin(CHAT);
        ConversationTurns.Turn failed = turns.begin(CHAT);
        assertEquals(2, turns.openTurns());

        assertTrue(turns.save(saved, ENTRIES));
        assertFalse(turns.save(saved, ENTRIES));
        turns.close(failed);
        turns.close(failed);

        assertEquals(0, turns.openTurns());
        assertEquals(ENTRIES, store.history(CHAT, 10));
    }
}
