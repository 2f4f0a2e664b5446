package dev.laneway.agents.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class StreamAssemblerTest {

    @Property
    void toolCallArguments_splitAtAnyPoints_reassembleExactly(
            @ForAll String arguments,
            @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 200) Integer> cuts) throws Exception {
        StreamAssembler assembler = new StreamAssembler();
        assembler.accept(parse(Responses.toolCallStart(0, "call_1", "current_time")));
        int previous = 0;
        for (int cut : new TreeSet<>(cuts)) {
            int at = Math.min(cut, arguments.length());
            assembler.accept(parse(Responses.toolCallArguments(0, arguments.substring(previous, at))));
            previous = at;
        }
        assembler.accept(parse(Responses.toolCallArguments(0, arguments.substring(previous))));

        String expected = arguments.isEmpty() ? "{}" : arguments;
        assertEquals(List.of(new ToolCall("call_1", "current_time", expected)), assembler.result().toolCalls());
    }

    @Property
    void textPieces_concatenateToTheContent(@ForAll @Size(max = 10) List<String> pieces) throws Exception {
        StreamAssembler assembler = new StreamAssembler();
        StringBuilder streamed = new StringBuilder();
        for (String piece : pieces) {
            streamed.append(assembler.accept(parse(Responses.text(piece))));
        }

        assertEquals(String.join("", pieces), assembler.result().content());
        assertEquals(String.join("", pieces), streamed.toString());
    }

    private static JsonNode parse(String json) throws Exception {
        return FakeOpenAi.JSON.readTree(json);
    }
}
