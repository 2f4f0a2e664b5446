package dev.laneway.config;

import dev.laneway.config.YamlNode.Entry;
import dev.laneway.config.YamlNode.ListNode;
import dev.laneway.config.YamlNode.MapNode;
import dev.laneway.config.YamlNode.Pos;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.config.YamlNode.ScalarNode.Kind;
import dev.laneway.core.Durations;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One YAML mapping at a config path, read with typed accessors that report every problem
 * (with path, value, line and column) and fall back to the default, so that reading goes on
 * and the user sees all problems of a file at once. An absent key and a null value both mean
 * "use the default".
 */
final class Section {

    static final String DURATION_HINT = "(use 1500, 1.5s, 2m or 1m30s)";
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d{1,18}");
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");

    private final String path;
    private final Pos pos;
    private final MapNode map;
    private final Problems problems;
    private final List<String> known; // the accepted keys, or null when any key is accepted

    private Section(String path, Pos pos, MapNode map, Problems problems, List<String> known) {
        this.path = path;
        this.pos = pos;
        this.map = map;
        this.problems = problems;
        this.known = known == null ? null : List.copyOf(known);
    }

    /**
     * The mapping {@code node} (null = absent), reporting a non-mapping value and every key not
     * in {@code known}; a null {@code known} accepts any key.
     */
    static Section of(YamlNode node, Pos pos, String path, Problems problems, List<String> known) {
        return of(node, pos, path, problems, known, "key");
    }

    /** As {@link #of(YamlNode, Pos, String, Problems, List)}; {@code noun} names what an unknown key is ("channel"). */
    private static Section of(YamlNode node, Pos pos, String path, Problems problems, List<String> known, String noun) {
        MapNode map = MapNode.EMPTY;
        if (node instanceof MapNode m) {
            map = m;
        } else if (node != null && !(node instanceof ScalarNode s && (s.isNull() || s.reported()))) {
            problems.add(path, node.pos(), "must be a mapping (key: value lines), got " + YamlNode.describe(node));
        }
        Section section = new Section(path, pos, map, problems, known);
        if (known != null) {
            section.reportUnknownKeys(known, noun);
        }
        return section;
    }

    static Section root(MapNode root, Problems problems, List<String> known) {
        return of(root, new Pos(1, 1), "", problems, known);
    }

    /** The nested mapping under {@code key}, accepting only the {@code known} keys. */
    Section section(String key, String... known) {
        return of(value(key), keyPos(key), pathOf(key), problems, List.of(known));
    }

    /**
     * The nested per-channel mapping under {@code key} ({@code byChannel}, {@code allowFrom}): a key
     * that is not a channel name is reported like an unknown key, with a "did you mean".
     */
    Section channelSection(String key) {
        return of(value(key), keyPos(key), pathOf(key), problems, ChannelsConfig.NAMES, "channel");
    }

    /** The nested mapping {@code spec} (docs/configuration.md §18), accepting exactly its keys. */
    Section section(KeySpec.Obj spec) {
        return section(spec.name(), spec.keyNames().toArray(String[]::new));
    }

    /** A list item or map value read as the mapping {@code spec}. */
    static Section of(YamlNode node, String path, Problems problems, KeySpec.Obj spec) {
        return of(node, node.pos(), path, problems, spec.keyNames());
    }

    /** The nested mapping under {@code key}, accepting any key. */
    Section openSection(String key) {
        return of(value(key), keyPos(key), pathOf(key), problems, null);
    }

    String path() {
        return path;
    }

    /** Where this section's key was written (or the file start for the root). */
    Pos pos() {
        return pos;
    }

    String pathOf(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** The keys in file order. */
    List<String> keys() {
        return List.copyOf(map.entries().keySet());
    }

    /** The keys in file order, without those reported as unknown. */
    List<String> knownKeys() {
        return known == null ? keys() : keys().stream().filter(known::contains).toList();
    }

    boolean has(String key) {
        YamlNode value = value(key);
        return value != null && !(value instanceof ScalarNode s && s.isNull());
    }

    /** The raw value under key, or null when absent. */
    YamlNode value(String key) {
        Entry entry = map.entries().get(key);
        return entry == null ? null : entry.value();
    }

    /** Where key was written, or this section's position when it is absent. */
    Pos keyPos(String key) {
        Entry entry = map.entries().get(key);
        return entry == null ? pos : entry.keyPos();
    }

    /** Where key's value was written, or this section's position when it is absent. */
    Pos valuePos(String key) {
        YamlNode value = value(key);
        return value == null || value.pos().equals(Pos.NONE) ? keyPos(key) : value.pos();
    }

    void problem(String key, String message) {
        problems.add(pathOf(key), valuePos(key), message);
    }

    void problemAtKey(String key, String message) {
        problems.add(pathOf(key), keyPos(key), message);
    }

    Problems problems() {
        return problems;
    }

    // Reading a described key (ConfigKeys): its name, default, range and words come from the spec.

    String string(KeySpec.Leaf key) {
        return string(key.name(), (String) key.defaultValue());
    }

    boolean bool(KeySpec.Leaf key) {
        return bool(key.name(), (Boolean) key.defaultValue());
    }

    int integer(KeySpec.Leaf key) {
        return integer(key.name(), (Integer) key.defaultValue(), min(key), max(key));
    }

    /** As {@link #integer(KeySpec.Leaf)} with another default (one that depends on other keys). */
    int integer(KeySpec.Leaf key, int defaultValue) {
        return integer(key.name(), defaultValue, min(key), max(key));
    }

    Integer optionalInteger(KeySpec.Leaf key) {
        return optionalInteger(key.name(), min(key), max(key));
    }

    Double optionalNumber(KeySpec.Leaf key) {
        return optionalNumber(key.name(), key.min() == null ? Double.NEGATIVE_INFINITY : key.min().doubleValue(),
                key.max() == null ? Double.POSITIVE_INFINITY : key.max().doubleValue());
    }

    Duration duration(KeySpec.Leaf key) {
        return duration(key.name(), (Duration) key.defaultValue());
    }

    Duration optionalDuration(KeySpec.Leaf key) {
        return optionalDuration(key.name());
    }

    /** A word of {@code key}, parsed by {@code parse}; {@code defaultValue} is the key's default as a value. */
    <E> E choice(KeySpec.Leaf key, E defaultValue, Function<String, Optional<E>> parse) {
        return choice(key.name(), defaultValue, parse, key.wordList());
    }

    List<String> stringList(KeySpec.Leaf key) {
        return stringList(key.name());
    }

    private static int min(KeySpec.Leaf key) {
        return key.min() == null ? Integer.MIN_VALUE : key.min().intValue();
    }

    private static int max(KeySpec.Leaf key) {
        return key.max() == null ? Integer.MAX_VALUE : key.max().intValue();
    }

    String string(String key, String defaultValue) {
        ScalarNode s = scalar(key, "a string");
        return s == null ? defaultValue : s.text();
    }

    boolean bool(String key, boolean defaultValue) {
        ScalarNode s = scalar(key, "true or false");
        if (s == null) {
            return defaultValue;
        }
        Optional<Boolean> value = asBoolean(s);
        if (value.isEmpty()) {
            problem(key, "must be true or false, got " + YamlNode.describe(s));
        }
        return value.orElse(defaultValue);
    }

    int integer(String key, int defaultValue, int min, int max) {
        Integer value = optionalInteger(key, min, max);
        return value == null ? defaultValue : value;
    }

    /** An integer in min..max, or null when absent or bad (then reported). */
    Integer optionalInteger(String key, int min, int max) {
        String expected = max == Integer.MAX_VALUE
                ? "an integer >= " + min : "an integer between " + min + " and " + max;
        ScalarNode s = scalar(key, expected);
        if (s == null) {
            return null;
        }
        Optional<Long> value = asLong(s);
        if (value.isEmpty() || value.get() < min || value.get() > max) {
            problem(key, "must be " + expected + ", got " + YamlNode.describe(s));
            return null;
        }
        return value.get().intValue();
    }

    /**
     * Any integer (the caller's settings record decides which are legal), or the default when absent
     * or not an integer (then reported).
     */
    int anyInteger(String key, int defaultValue) {
        Integer value = optionalAnyInteger(key);
        return value == null ? defaultValue : value;
    }

    /** Any integer, or null when absent or not an integer (then reported). */
    Integer optionalAnyInteger(String key) {
        ScalarNode s = scalar(key, "an integer");
        if (s == null) {
            return null;
        }
        Optional<Long> value = asLong(s);
        if (value.isEmpty()) {
            problem(key, "must be an integer, got " + YamlNode.describe(s));
            return null;
        }
        if (value.get() < Integer.MIN_VALUE || value.get() > Integer.MAX_VALUE) {
            problem(key, "must be an integer between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE
                    + ", got " + YamlNode.describe(s));
            return null;
        }
        return value.get().intValue();
    }

    /** Any number (the caller's settings record decides which are legal), or null when absent or bad (then reported). */
    Double optionalNumber(String key) {
        return optionalNumber(key, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
    }

    /** A number in min..max, or null when absent or bad (then reported). */
    Double optionalNumber(String key, double min, double max) {
        String expected = Double.isInfinite(min) && Double.isInfinite(max) ? "a number"
                : "a number between " + plain(min) + " and " + plain(max);
        ScalarNode s = scalar(key, expected);
        if (s == null) {
            return null;
        }
        Double value = switch (s.kind()) {
            case INT, FLOAT -> ((Number) s.value()).doubleValue();
            case STRING -> DECIMAL.matcher(s.text().trim()).matches() ? Double.valueOf(s.text().trim()) : null;
            default -> null;
        };
        if (value == null || value.isNaN() || value < min || value > max) {
            problem(key, "must be " + expected + ", got " + YamlNode.describe(s));
            return null;
        }
        return value;
    }

    Duration duration(String key, Duration defaultValue) {
        Duration value = optionalDuration(key);
        return value == null ? defaultValue : value;
    }

    /** A duration (ms number or {@link Durations} text), or null when absent or bad (then reported). */
    Duration optionalDuration(String key) {
        ScalarNode s = scalar(key, "a duration " + DURATION_HINT);
        if (s == null) {
            return null;
        }
        Optional<Duration> value = s.kind() == Kind.BOOL ? Optional.empty() : Durations.parse(s.text());
        if (value.isEmpty()) {
            problem(key, "invalid duration " + YamlNode.quote(s.text()) + " " + DURATION_HINT);
        }
        return value.orElse(null);
    }

    /** One of a closed set of words, parsed by {@code parse} (which may accept aliases). */
    <E> E choice(String key, E defaultValue, Function<String, Optional<E>> parse, String allowed) {
        ScalarNode s = scalar(key, "one of " + allowed);
        if (s == null) {
            return defaultValue;
        }
        Optional<E> value = parse.apply(s.text());
        if (value.isEmpty()) {
            problem(key, "must be one of " + allowed + ", got " + YamlNode.describe(s));
        }
        return value.orElse(defaultValue);
    }

    /** A list of scalars as strings (numbers kept as written); absent = empty. */
    List<String> stringList(String key) {
        YamlNode node = value(key);
        if (node == null || node instanceof ScalarNode s && (s.isNull() || s.reported())) {
            return List.of();
        }
        return stringList(node, pathOf(key));
    }

    /** The items of a list node as strings, reporting a non-list and non-scalar items. */
    List<String> stringList(YamlNode node, String listPath) {
        if (!(node instanceof ListNode list)) {
            problems.add(listPath, node.pos(), "must be a list (like [a, b]), got " + YamlNode.describe(node));
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            if (item instanceof ScalarNode s && !s.isNull()) {
                out.add(s.text());
            } else if (!(item instanceof ScalarNode s && s.reported())) {
                problems.add(listPath + "[" + i + "]", item.pos(), "must be a string or number, got " + YamlNode.describe(item));
            }
        }
        return List.copyOf(out);
    }

    /** The scalar under key, or null when absent, null, already reported, or not a scalar (reported). */
    private ScalarNode scalar(String key, String expected) {
        YamlNode node = value(key);
        if (node == null) {
            return null;
        }
        if (node instanceof ScalarNode s) {
            return s.isNull() || s.reported() ? null : s;
        }
        problems.add(pathOf(key), node.pos(), "must be " + expected + ", got " + YamlNode.describe(node));
        return null;
    }

    private void reportUnknownKeys(List<String> known, String noun) {
        for (Map.Entry<String, Entry> entry : map.entries().entrySet()) {
            String key = entry.getKey();
            if (known.contains(key)) {
                continue;
            }
            String hint = Suggestions.closest(key, known)
                    .map(k -> ", did you mean \"" + k + "\"?")
                    .orElse(known.isEmpty() ? " (no keys are allowed here)"
                            : " (known " + noun + "s: " + String.join(", ", known) + ")");
            problems.add(pathOf(key), entry.getValue().keyPos(), "unknown " + noun + hint);
        }
    }

    private static Optional<Boolean> asBoolean(ScalarNode s) {
        if (s.kind() == Kind.BOOL) {
            return Optional.of((Boolean) s.value());
        }
        return switch (s.text().trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> Optional.of(true);
            case "false" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    private static Optional<Long> asLong(ScalarNode s) {
        if (s.kind() == Kind.INT) {
            BigInteger big = s.value() instanceof BigInteger b ? b : BigInteger.valueOf(((Number) s.value()).longValue());
            return big.bitLength() < 63 ? Optional.of(big.longValue()) : Optional.empty();
        }
        String text = s.text().trim();
        return s.kind() == Kind.STRING && INTEGER.matcher(text).matches() ? Optional.of(Long.parseLong(text)) : Optional.empty();
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
