package dev.laneway.agents.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.agents.pool.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds one assistant message from streamed chunks: text pieces are appended, tool calls are
 * assembled by {@code index} (id, then name and argument pieces as they come). Not thread-safe;
 * the run thread owns it.
 */
final class StreamAssembler {

    private static final class PartialCall {
        private String id = "";
        private final StringBuilder name = new StringBuilder();
        private final StringBuilder arguments = new StringBuilder();
    }

    private final StringBuilder content = new StringBuilder();
    // tool call index -> the call assembled so far
    private final Map<Integer, PartialCall> calls = new TreeMap<>();
    private boolean finished;
    private Usage usage = Usage.NONE;

    /** Takes one chunk and returns the text it adds (possibly empty). */
    String accept(JsonNode chunk) throws CallFailure {
        if (!chunk.isObject()) {
            throw CallFailure.malformed();
        }
        if (chunk.hasNonNull("error")) {
            throw CallFailure.failed("provider error", false);
        }
        if (chunk.path("usage").isObject()) {
            usage = ResponseReader.usage(chunk.get("usage")); // stream_options.include_usage: the last chunk
        }
        JsonNode choice = chunk.path("choices").path(0);
        if (!choice.isObject()) {
            return ""; // e.g. a usage-only chunk
        }
        JsonNode delta = choice.path("delta");
        String text = delta.path("content").isTextual() ? delta.get("content").asText() : "";
        content.append(text);
        JsonNode toolCalls = delta.path("tool_calls");
        for (int i = 0; i < toolCalls.size(); i++) {
            acceptToolCall(toolCalls.get(i), i);
        }
        if (choice.hasNonNull("finish_reason")) {
            finished = true;
        }
        return text;
    }

    private void acceptToolCall(JsonNode piece, int position) throws CallFailure {
        if (!piece.isObject()) {
            throw CallFailure.malformed();
        }
        int index = piece.path("index").canConvertToInt() ? piece.path("index").asInt() : position;
        PartialCall call = calls.computeIfAbsent(index, i -> new PartialCall());
        String id = piece.path("id").asText("");
        if (!id.isEmpty()) {
            call.id = id;
        }
        JsonNode function = piece.path("function");
        call.name.append(function.path("name").asText(""));
        JsonNode arguments = function.path("arguments");
        call.arguments.append(arguments.isTextual() ? arguments.asText()
                : arguments.isMissingNode() || arguments.isNull() ? "" : arguments.toString());
    }

    /** True once a chunk carried a {@code finish_reason}. */
    boolean finished() {
        return finished;
    }

    AssistantMessage result() {
        List<ToolCall> toolCalls = new ArrayList<>();
        calls.forEach((index, call) -> toolCalls.add(new ToolCall(
                call.id.isEmpty() ? "call_" + index : call.id,
                call.name.toString(),
                call.arguments.isEmpty() ? "{}" : call.arguments.toString())));
        return new AssistantMessage(content.toString(), toolCalls, usage);
    }
}
