package dev.laneway.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.laneway.config.YamlNode.Entry;
import dev.laneway.config.YamlNode.ListNode;
import dev.laneway.config.YamlNode.MapNode;
import dev.laneway.config.YamlNode.Pos;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.config.YamlNode.ScalarNode.Kind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Builds a {@link YamlNode} tree from Jackson's YAML token stream, keeping the line and column
 * of every key and value, and interpolating environment variables into string scalars.
 * Duplicate keys and aliases are reported; a syntax error, or nesting deeper than
 * {@link ConfigLimits#MAX_DEPTH}, ends the read.
 */
final class YamlTreeReader {

    private static final YAMLFactory FACTORY = new YAMLFactory();

    private final YAMLParser parser;
    private final Problems problems;
    private final EnvInterpolator env;
    private int depth; // mappings and lists open around the current token

    private YamlTreeReader(YAMLParser parser, Problems problems, EnvInterpolator env) {
        this.parser = parser;
        this.problems = problems;
        this.env = env;
    }

    /** The document's root mapping; empty when the syntax is broken (then a problem says where). */
    static Optional<MapNode> read(String text, Problems problems, EnvInterpolator env) {
        try (YAMLParser parser = FACTORY.createParser(text)) {
            YamlTreeReader reader = new YamlTreeReader(parser, problems, env);
            try {
                return reader.document();
            } catch (TooDeep e) {
                return Optional.empty();
            } catch (StreamConstraintsException e) {
                problems.add("", reader.pos(), "invalid YAML: " + withoutParserInternals(e.getOriginalMessage()));
                return Optional.empty();
            }
        } catch (JacksonException e) {
            reportSyntax(e, problems);
            return Optional.empty();
        } catch (IOException e) {
            problems.add("", Pos.NONE, "cannot read YAML: " + e.getMessage());
            return Optional.empty();
        }
    }

    private Optional<MapNode> document() throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            return Optional.of(MapNode.EMPTY);
        }
        YamlNode root = value(first, "");
        JsonToken extra = parser.nextToken();
        if (extra != null) {
            problems.add("", pos(), "only one YAML document is allowed (remove the second \"---\")");
        }
        if (root instanceof MapNode map) {
            return Optional.of(map);
        }
        if (root instanceof ScalarNode s && s.isNull()) {
            return Optional.of(MapNode.EMPTY);
        }
        problems.add("", root.pos(), "the file must be a mapping of keys to values, got " + YamlNode.describe(root));
        return Optional.empty();
    }

    private YamlNode value(JsonToken token, String path) throws IOException {
        Pos pos = pos();
        return switch (token) {
            case START_OBJECT -> mapping(path, pos);
            case START_ARRAY -> sequence(path, pos);
            default -> scalar(token, path, pos);
        };
    }

    private MapNode mapping(String path, Pos pos) throws IOException {
        enter(pos);
        Map<String, Entry> entries = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            Pos keyPos = pos();
            String keyPath = path.isEmpty() ? key : path + "." + key;
            YamlNode value = value(parser.nextToken(), keyPath);
            Entry first = entries.putIfAbsent(key, new Entry(keyPos, value));
            if (first != null) {
                problems.add(keyPath, keyPos, "duplicate key (first written at line " + first.keyPos().line() + ")");
            }
        }
        depth--;
        return new MapNode(pos, Collections.unmodifiableMap(entries));
    }

    private ListNode sequence(String path, Pos pos) throws IOException {
        enter(pos);
        List<YamlNode> items = new ArrayList<>();
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            items.add(value(token, path + "[" + items.size() + "]"));
        }
        depth--;
        return new ListNode(pos, List.copyOf(items));
    }

    /** One level deeper; past {@link ConfigLimits#MAX_DEPTH} the read ends with a problem here. */
    private void enter(Pos pos) {
        if (++depth > ConfigLimits.MAX_DEPTH) {
            problems.add("", pos, ConfigLimits.tooDeep());
            throw new TooDeep();
        }
    }

    private ScalarNode scalar(JsonToken token, String path, Pos pos) throws IOException {
        String text = parser.getText();
        if (parser.isCurrentAlias()) {
            problems.add(path, pos, "YAML aliases (*" + text + ") are not supported; write the value out");
            return new ScalarNode(pos, Kind.NULL, "", null, true);
        }
        return switch (token) {
            case VALUE_NUMBER_INT -> new ScalarNode(pos, Kind.INT, text, parser.getNumberValue(), false);
            case VALUE_NUMBER_FLOAT -> new ScalarNode(pos, Kind.FLOAT, text, parser.getDoubleValue(), false);
            case VALUE_TRUE, VALUE_FALSE -> new ScalarNode(pos, Kind.BOOL, text, token == JsonToken.VALUE_TRUE, false);
            case VALUE_NULL -> new ScalarNode(pos, Kind.NULL, "", null, false);
            default -> interpolated(text, path, pos);
        };
    }

    private ScalarNode interpolated(String text, String path, Pos pos) {
        String value = env.apply(text, message -> problems.add(path, pos, message));
        if (value == null) {
            return new ScalarNode(pos, Kind.NULL, "", null, true);
        }
        // An empty result from ${X:-} reads like an empty value before parsing would: null.
        boolean emptied = value.isEmpty() && !text.isEmpty();
        return new ScalarNode(pos, emptied ? Kind.NULL : Kind.STRING, value, null, false);
    }

    private Pos pos() {
        JsonLocation location = parser.currentTokenLocation();
        return new Pos(location.getLineNr(), location.getColumnNr());
    }

    private static void reportSyntax(JacksonException e, Problems problems) {
        if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
            String context = marked.getContext() == null ? "" : marked.getContext() + ": ";
            Pos pos = new Pos(marked.getProblemMark().getLine() + 1, marked.getProblemMark().getColumn() + 1);
            problems.add("", pos, "invalid YAML: " + oneLine(context + marked.getProblem()));
            return;
        }
        JsonLocation location = e.getLocation();
        Pos pos = location == null ? Pos.NONE : new Pos(location.getLineNr(), location.getColumnNr());
        problems.add("", pos, "invalid YAML: " + oneLine(e.getOriginalMessage()));
    }

    /** Jackson's limit messages name its own API ("..., from `StreamReadConstraints...`"); drop that. */
    private static String withoutParserInternals(String message) {
        String text = oneLine(message).replaceAll(",? from `[^`]*`", "");
        return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }

    /** Ends a read that went deeper than {@link ConfigLimits#MAX_DEPTH}, after its problem was reported. */
    private static final class TooDeep extends RuntimeException {
        TooDeep() {
            super(null, null, false, false);
        }
    }

    private static String oneLine(String text) {
        return text == null ? "syntax error" : text.strip().replaceAll("\\s*\\n\\s*", " ");
    }
}
