package dev.laneway.config;

import dev.laneway.core.UrlRedactor;
import java.util.List;
import java.util.Map;

/**
 * A parsed YAML value that remembers where it was written. Jackson's tree model drops
 * locations, so {@link YamlTreeReader} builds these from parser tokens instead.
 */
sealed interface YamlNode permits YamlNode.MapNode, YamlNode.ListNode, YamlNode.ScalarNode {

    Pos pos();

    /** A 1-based line and column; {@link #NONE} when unknown. */
    record Pos(int line, int column) {
        static final Pos NONE = new Pos(0, 0);
    }

    /** One key of a mapping: where the key was written, and its value. */
    record Entry(Pos keyPos, YamlNode value) {
    }

    /** A mapping; entries keep the file's order. */
    record MapNode(Pos pos, Map<String, Entry> entries) implements YamlNode {
        static final MapNode EMPTY = new MapNode(Pos.NONE, Map.of());
    }

    record ListNode(Pos pos, List<YamlNode> items) implements YamlNode {
    }

    /**
     * A scalar after environment interpolation.
     *
     * @param text     the scalar's text as written (after interpolation)
     * @param value    a {@link Number} for INT/FLOAT, a {@link Boolean} for BOOL, else null
     * @param reported true when a problem about this scalar was already reported (a missing
     *                 environment variable, an alias); readers then use their default silently
     */
    record ScalarNode(Pos pos, Kind kind, String text, Object value, boolean reported) implements YamlNode {

        enum Kind { STRING, INT, FLOAT, BOOL, NULL }

        boolean isNull() {
            return kind == Kind.NULL;
        }
    }

    /** How a value is named in messages: strings quoted, other scalars as written. */
    static String describe(YamlNode node) {
        return switch (node) {
            case MapNode m -> "a mapping";
            case ListNode l -> "a list";
            case ScalarNode s when s.kind() == ScalarNode.Kind.STRING -> quote(s.text());
            case ScalarNode s when s.kind() == ScalarNode.Kind.NULL -> "nothing";
            case ScalarNode s -> s.text();
        };
    }

    /**
     * A value quoted for a message: credentials in a URL masked ({@link UrlRedactor}) before it is
     * cut to 60 characters, so that a cut cannot leave part of a password behind.
     */
    static String quote(String text) {
        String redacted = UrlRedactor.redact(text);
        String shown = redacted.length() > 60 ? redacted.substring(0, 60) + "…" : redacted;
        return '"' + shown.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
}
