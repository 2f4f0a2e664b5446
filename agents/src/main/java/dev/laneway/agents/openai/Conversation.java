package dev.laneway.agents.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.laneway.core.store.HistoryEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The messages of one run and the part of them worth keeping in the session history: user and
 * assistant texts (the store's {@link HistoryEntry} cannot hold tool calls). Entries are
 * committed when the model answers, so a user message the model never answered (a steer handed
 * back as unseen) is not stored. Not thread-safe; the run thread owns it.
 */
final class Conversation {

    private static final Set<String> REPLAYABLE_ROLES = Set.of("system", "user", "assistant");

    private final ArrayNode messages;
    private final List<HistoryEntry> entries = new ArrayList<>();
    private int committed;

    private Conversation(ArrayNode messages) {
        this.messages = messages;
    }

    /** System prompt (if any), then the stored history, then the turn's prompt. */
    static Conversation start(ObjectMapper mapper, String systemPrompt, List<HistoryEntry> history, String prompt) {
        return start(mapper, systemPrompt, history, prompt, mapper.getNodeFactory().textNode(prompt));
    }

    /**
     * With the turn's content as the model gets it ({@code content}: the prompt with its attachments placed,
     * {@link ContentParts}); the history keeps the prompt's text, markers and all (docs/behaviour.md §15.2).
     */
    static Conversation start(ObjectMapper mapper, String systemPrompt, List<HistoryEntry> history, String prompt,
                              JsonNode content) {
        Conversation conversation = new Conversation(mapper.createArrayNode());
        if (!systemPrompt.isBlank()) {
            conversation.messages.addObject().put("role", "system").put("content", systemPrompt);
        }
        for (HistoryEntry entry : history) {
            if (REPLAYABLE_ROLES.contains(entry.role())) {
                conversation.messages.addObject().put("role", entry.role()).put("content", entry.content());
            }
        }
        conversation.addUser(prompt, content);
        return conversation;
    }

    void addUser(String text) {
        messages.addObject().put("role", "user").put("content", text);
        entries.add(new HistoryEntry("user", text));
    }

    /** A user message whose content is {@code content}; the history keeps {@code text}. */
    void addUser(String text, JsonNode content) {
        messages.addObject().put("role", "user").set("content", content);
        entries.add(new HistoryEntry("user", text));
    }

    /** Adds the model's answer and commits everything before it to the history. */
    void addAssistant(AssistantMessage answer) {
        ObjectNode message = messages.addObject().put("role", "assistant");
        if (answer.content().isEmpty() && !answer.toolCalls().isEmpty()) {
            message.putNull("content");
        } else {
            message.put("content", answer.content());
        }
        if (!answer.toolCalls().isEmpty()) {
            ArrayNode calls = message.putArray("tool_calls");
            for (ToolCall call : answer.toolCalls()) {
                calls.addObject().put("id", call.id()).put("type", "function")
                        .putObject("function").put("name", call.name()).put("arguments", call.arguments());
            }
        }
        if (answer.hasText()) {
            entries.add(new HistoryEntry("assistant", answer.content()));
        }
        committed = entries.size();
    }

    void addToolResult(String toolCallId, String content) {
        messages.addObject().put("role", "tool").put("tool_call_id", toolCallId).put("content", content);
    }

    /** The messages to send; the caller serializes them before the next change. */
    ArrayNode messages() {
        return messages;
    }

    /** User and assistant texts up to the model's last answer. */
    List<HistoryEntry> committedEntries() {
        return List.copyOf(entries.subList(0, committed));
    }
}
