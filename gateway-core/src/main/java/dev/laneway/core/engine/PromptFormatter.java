package dev.laneway.core.engine;

import dev.laneway.core.Attachment;
import dev.laneway.core.agent.MessageFiles;
import java.util.List;

/** Builds the prompts of drained turns (docs/behaviour.md §5.2, §5.3, §5.5). */
final class PromptFormatter {

    static final String COLLECT_HEADER = "[Queued messages while agent was busy]";
    private static final int SUMMARY_LINE_MAX = 160;

    private PromptFormatter() {
    }

    /** The collect prompt: header, overflow block (if any), then one block per item. */
    static String collect(List<QueuedItem> batch, List<String> overflow, boolean group) {
        StringBuilder prompt = new StringBuilder(COLLECT_HEADER);
        if (!overflow.isEmpty()) {
            prompt.append("\n\n").append(overflowBlock(overflow));
        }
        for (int i = 0; i < batch.size(); i++) {
            QueuedItem item = batch.get(i);
            prompt.append("\n\n---\nQueued #").append(i + 1);
            if (group) {
                prompt.append(" (from ").append(item.last().senderName()).append(')');
            }
            prompt.append('\n').append(agentText(item));
        }
        return prompt.toString();
    }

    /** A followup turn's prompt: the overflow block (if any), a blank line, then the item's text. */
    static String followup(QueuedItem item, List<String> overflow) {
        return overflow.isEmpty() ? agentText(item) : overflowBlock(overflow) + "\n\n" + agentText(item);
    }

    /**
     * An item's text for the agent: its text, then one marker line per attachment
     * ({@code [file: <name> (<type>, <size>)]}, docs/behaviour.md §15.2); an item without text is its
     * markers alone. The agent finds each attachment's place by its marker.
     */
    static String agentText(QueuedItem item) {
        List<MessageFiles> files = item.files();
        if (files.isEmpty()) {
            return item.text();
        }
        StringBuilder text = new StringBuilder(item.text());
        for (MessageFiles message : files) {
            for (Attachment attachment : message.attachments()) {
                if (!text.isEmpty()) {
                    text.append('\n');
                }
                text.append(attachment.marker());
            }
        }
        return text.toString();
    }

    /**
     * A dropped item's summary line (docs/behaviour.md §5.5): {@link #summaryLine} of its text, then
     * {@code [files: <name>, <name>]} naming its attachments (not counted in the 160).
     */
    static String summaryLine(QueuedItem item) {
        String line = summaryLine(item.text());
        List<String> names = item.files().stream()
                .flatMap(files -> files.attachments().stream()).map(Attachment::label).toList();
        if (names.isEmpty()) {
            return line;
        }
        String files = "[files: " + String.join(", ", names) + "]";
        return line.isEmpty() ? files : line + " " + files;
    }

    static String overflowBlock(List<String> lines) {
        int n = lines.size();
        StringBuilder block = new StringBuilder("[Queue overflow] Dropped ")
                .append(n).append(n == 1 ? " message" : " messages").append(" due to cap.\nSummary:");
        lines.forEach(line -> block.append("\n- ").append(line));
        return block.toString();
    }

    /** A turn that carries only an overflow summary (no queued item of its audience was left). */
    static String overflowOnly(List<String> overflow) {
        return overflowBlock(overflow);
    }

    /**
     * One summary line: whitespace collapsed, at most 160 characters (code points, so an emoji is
     * one character and is never cut in half), ending in … when cut.
     */
    static String summaryLine(String text) {
        String collapsed = text.strip().replaceAll("\\s+", " ");
        if (collapsed.codePointCount(0, collapsed.length()) <= SUMMARY_LINE_MAX) {
            return collapsed;
        }
        int end = collapsed.offsetByCodePoints(0, SUMMARY_LINE_MAX - 1);
        return collapsed.substring(0, end).stripTrailing() + "…";
    }
}
