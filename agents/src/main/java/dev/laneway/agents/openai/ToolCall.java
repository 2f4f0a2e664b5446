package dev.laneway.agents.openai;

import java.util.Objects;

/** One function call an assistant message asks for; {@code arguments} is the raw JSON text. */
record ToolCall(String id, String name, String arguments) {

    ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }
}
