package dev.laneway.agents.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.agents.pool.Usage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads a successful Chat Completions answer, streamed (SSE) or whole. Transport failures surface
 * as {@link IOException}; anything that is not the expected JSON is a {@link CallFailure}.
 */
final class ResponseReader {

    private final ObjectMapper mapper;

    ResponseReader(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** Reads chunks until {@code [DONE]}, passing each text piece to {@code onDelta} as it arrives. */
    AssistantMessage readStream(InputStream body, Consumer<String> onDelta) throws IOException, CallFailure {
        SseReader events = new SseReader(new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8)));
        StreamAssembler assembler = new StreamAssembler();
        String data;
        while ((data = events.next()) != null) {
            if (data.strip().equals("[DONE]")) {
                return assembler.result();
            }
            String text = assembler.accept(parse(data));
            if (!text.isEmpty()) {
                onDelta.accept(text);
            }
        }
        if (assembler.finished()) {
            return assembler.result(); // some servers end the stream without [DONE]
        }
        throw CallFailure.failed("stream interrupted", true);
    }

    /** Reads a whole (non-streamed) answer. */
    AssistantMessage readWhole(InputStream body) throws IOException, CallFailure {
        JsonNode root = parse(new String(body.readAllBytes(), StandardCharsets.UTF_8));
        if (root.hasNonNull("error")) {
            throw CallFailure.failed("provider error", false);
        }
        JsonNode message = root.path("choices").path(0).path("message");
        if (!message.isObject()) {
            throw CallFailure.malformed();
        }
        String content = message.path("content").isTextual() ? message.get("content").asText() : "";
        List<ToolCall> calls = new ArrayList<>();
        JsonNode toolCalls = message.path("tool_calls");
        for (int i = 0; i < toolCalls.size(); i++) {
            calls.add(toolCall(toolCalls.get(i), i));
        }
        return new AssistantMessage(content, calls, root.path("usage").isObject() ? usage(root.get("usage")) : Usage.NONE);
    }

    /** {@code usage}: {@code prompt_tokens} and {@code completion_tokens}; what is missing or odd counts as 0. */
    static Usage usage(JsonNode usage) {
        return new Usage(usage.path("prompt_tokens").asLong(0), usage.path("completion_tokens").asLong(0));
    }

    private static ToolCall toolCall(JsonNode node, int position) throws CallFailure {
        JsonNode function = node.path("function");
        String name = function.path("name").asText("");
        if (name.isEmpty()) {
            throw CallFailure.malformed();
        }
        JsonNode arguments = function.path("arguments");
        String args = arguments.isTextual() ? arguments.asText()
                : arguments.isMissingNode() || arguments.isNull() ? "{}" : arguments.toString();
        String id = node.path("id").asText("");
        return new ToolCall(id.isEmpty() ? "call_" + position : id, name, args.isBlank() ? "{}" : args);
    }

    private JsonNode parse(String json) throws CallFailure {
        try {
            JsonNode node = mapper.readTree(json);
            if (node == null || !node.isObject()) {
                throw CallFailure.malformed();
            }
            return node;
        } catch (JsonProcessingException e) {
            throw CallFailure.malformed();
        }
    }
}
