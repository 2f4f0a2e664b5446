package dev.laneway.agents.openai;

import dev.laneway.agents.pool.Usage;
import java.util.List;
import java.util.Objects;

/**
 * One assistant message from the model: its text (possibly empty), the tool calls it asks for, and
 * the tokens the call used as the provider reported them ({@link Usage#NONE} when it did not).
 */
record AssistantMessage(String content, List<ToolCall> toolCalls, Usage usage) {

    AssistantMessage {
        Objects.requireNonNull(content, "content");
        toolCalls = List.copyOf(toolCalls);
        usage = usage == null ? Usage.NONE : usage;
    }

    AssistantMessage(String content, List<ToolCall> toolCalls) {
        this(content, toolCalls, Usage.NONE);
    }

    boolean hasText() {
        return !content.isBlank();
    }
}
