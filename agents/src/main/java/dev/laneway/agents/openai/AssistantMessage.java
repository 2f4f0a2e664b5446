package dev.laneway.agents.openai;

import java.util.List;
import java.util.Objects;

/** One assistant message from the model: its text (possibly empty) and the tool calls it asks for. */
record AssistantMessage(String content, List<ToolCall> toolCalls) {

    AssistantMessage {
        Objects.requireNonNull(content, "content");
        toolCalls = List.copyOf(toolCalls);
    }

    boolean hasText() {
        return !content.isBlank();
    }
}
