package dev.laneway.agents.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseReaderTest {

    @Test
    void dataOfEachEvent_isReturnedInOrder_ignoringCommentsAndOtherFields() throws IOException {
        assertEquals(List.of("one", "two", "[DONE]"),
                events(": keep-alive\n\nevent: message\nid: 7\ndata: one\n\ndata:two\r\n\r\ndata: [DONE]\n\n"));
    }

    @Test
    void multiLineData_isJoinedWithNewlines() throws IOException {
        assertEquals(List.of("a\nb"), events("data: a\ndata: b\n\n"));
    }

    @Test
    void lastEventWithoutTrailingBlankLine_isStillReturned() throws IOException {
        assertEquals(List.of("x", "tail"), events("data: x\n\ndata: tail"));
    }

    @Test
    void emptyStream_hasNoEvents() throws IOException {
        assertNull(new SseReader(new BufferedReader(new StringReader(""))).next());
    }

    private static List<String> events(String stream) throws IOException {
        SseReader reader = new SseReader(new BufferedReader(new StringReader(stream)));
        List<String> events = new ArrayList<>();
        String data;
        while ((data = reader.next()) != null) {
            events.add(data);
        }
        return events;
    }
}
