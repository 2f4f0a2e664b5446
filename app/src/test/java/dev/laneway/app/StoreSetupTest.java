package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.config.ConfigLoader;
import dev.laneway.config.LanewayConfig;
import dev.laneway.core.SessionKey;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.store.SqliteStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreSetupTest {

    private static LanewayConfig config(String yaml) throws Exception {
        return ConfigLoader.parse(yaml, "laneway.yaml", Map.of());
    }

    @Test
    void anAgentAskingForMoreHistoryThanTheDefault_getsAllOfItStored(@TempDir Path dir) throws Exception {
        LanewayConfig config = config("""
                agents:
                  list:
                    assistant: { provider: openai, model: m, maxHistoryMessages: 500 }
                    small: { provider: openai, model: m, maxHistoryMessages: 10 }
                """);
        SessionKey session = SessionKey.of("console:local");
        List<HistoryEntry> turns = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            turns.add(new HistoryEntry(i % 2 == 0 ? "user" : "assistant", "message " + i));
        }

        try (SqliteStore store = SqliteStore.open(dir, StoreSetup.options(config))) {
            for (int i = 0; i < turns.size(); i += 2) {
                store.appendHistory(session, turns.subList(i, i + 2));
            }
            List<HistoryEntry> history = store.history(session, 500);

            assertEquals(500, history.size());
            assertEquals(turns.subList(100, 600), history);
        }
    }

    @Test
    void agentsAskingForLittleHistory_keepTheDefaultPerSession() throws Exception {
        assertEquals(200, StoreSetup.options(config("")).maxHistoryPerSession());
        assertEquals(200, StoreSetup.options(config(
                "agents: { list: { assistant: { provider: openai, model: m, maxHistoryMessages: 40 } } }"))
                .maxHistoryPerSession());
        assertEquals(1000, StoreSetup.options(config(
                "agents: { list: { assistant: { provider: openai, model: m, maxHistoryMessages: 1000 } } }"))
                .maxHistoryPerSession());
    }
}
