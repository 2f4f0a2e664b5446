package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.laneway.core.testing.LogCapture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which {@code getUpdates} answers are rewritten, and how: only unreadable updates, each to its bare id. */
class PoisonUpdateInterceptorTest {

    private final ObjectMapper mapper = new ObjectMapper();
    private final PoisonUpdateInterceptor interceptor = new PoisonUpdateInterceptor(mapper);

    private static ObjectNode good(int updateId) {
        return Tg.update(updateId, "message", Tg.message(updateId, Tg.privateChat(Tg.ANN), Tg.ANN, "hi " + updateId));
    }

    private static byte[] answer(JsonNode... updates) {
        ArrayNode result = Tg.JSON.createArrayNode();
        List.of(updates).forEach(result::add);
        return Tg.JSON.createObjectNode().put("ok", true).set("result", result).toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readableAnswers_passAsTheyCame() throws IOException {
        ObjectNode idAsText = good(3);
        idAsText.put("update_id", "3");        // the SDK reads it as 3
        for (byte[] raw : List.of(answer(good(1), good(2)), answer(), answer(idAsText))) {
            assertSame(raw, interceptor.repair(raw));
        }
    }

    @Test
    void answersThatAreNotAnUpdateList_areLeftToTheSdk() throws IOException {
        for (String body : List.of("<html>502 Bad Gateway</html>", "", "{\"ok\":false,\"error_code\":409,"
                + "\"description\":\"Conflict: terminated by other getUpdates request\"}", "[1,2]", "{\"ok\":true,\"result\":true}")) {
            byte[] raw = body.getBytes(StandardCharsets.UTF_8);
            assertSame(raw, interceptor.repair(raw), body);
        }
    }

    @Test
    void anUnreadableUpdate_becomesItsBareId_andTheOthersStayAsTheyAre() throws IOException {
        ObjectNode bad = good(2);
        ((ObjectNode) bad.get("message")).putArray("chat").add(1);   // an array where an object belongs
        try (LogCapture log = LogCapture.of(PoisonUpdateInterceptor.class)) {
            JsonNode repaired = mapper.readTree(interceptor.repair(answer(good(1), bad, good(3))));

            assertEquals(mapper.readTree(answer(good(1), mapper.createObjectNode().put("update_id", 2), good(3))), repaired);
            assertEquals(1, log.warnings().size());
            assertTrue(log.warnings().getFirst().startsWith("telegram: skipping update 2, which the SDK cannot read "
                    + "(message.chat: Cannot deserialize value of type `org.telegram"), log.warnings().getFirst());
        }
    }

    @Test
    void theProblemIsNamedByItsPathInsideTheUpdate() throws IOException {
        ObjectNode bad = good(7);
        ((ObjectNode) bad.get("message")).putArray("entities").addObject().put("type", "mention").put("offset", "far");
        try (LogCapture log = LogCapture.of(PoisonUpdateInterceptor.class)) {
            interceptor.repair(answer(bad));
            assertTrue(log.warnings().getFirst().contains("(message.entities[0].offset: "), log.warnings().getFirst());
        }
    }

    @Test
    void anUpdateWithoutAUsableId_failsThePoll() {
        ObjectNode unreadable = good(1);
        unreadable.remove("update_id");
        unreadable.put("message", 5);
        ObjectNode readable = good(1);
        readable.remove("update_id");
        ObjectNode hugeId = good(1);
        hugeId.put("message", 5).put("update_id", 1L << 40);
        for (JsonNode update : List.of(unreadable, readable, hugeId, mapper.nullNode())) {
            IOException e = assertThrows(IOException.class, () -> interceptor.repair(answer(good(0), update)),
                    update.toString());
            assertEquals("getUpdates returned an update without a usable update_id", e.getMessage());
        }
    }
}
