package dev.laneway.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One key of the configuration file, as the binders read it and as {@link ConfigSchema} describes it
 * (docs/configuration.md §18): a value ({@link Leaf}), a mapping with fixed keys ({@link Obj}), a
 * mapping whose keys are names the user chooses ({@link MapOf}), a list ({@link ListOf}), a mapping
 * whose keys depend on one of its values ({@link Variants}), or a word-or-mapping ({@link Either}).
 * The tree of every key is {@link ConfigKeys}. A binder takes a mapping's accepted keys, and a
 * value's type, range, words and default, from here, so {@code validate} and the schema cannot
 * drift apart; rules that relate several keys stay in the binders (the schema does not check them).
 */
sealed interface KeySpec permits KeySpec.Leaf, KeySpec.Obj, KeySpec.MapOf, KeySpec.ListOf, KeySpec.Variants,
        KeySpec.Either {

    /** The key as written in the file (empty for a list item or a map value). */
    String name();

    /** One line for editors and the reference. */
    String about();

    /** What a value holds. */
    enum Type {
        /** Any string. */
        STRING,
        /** A string that is not blank. */
        TEXT,
        /** A token or key: write it as {@code ${NAME}} (docs/configuration.md §2). */
        SECRET,
        BOOL,
        INT,
        NUMBER,
        /** Milliseconds, or text like 1.5s, 2m, 1m30s ({@code dev.laneway.core.Durations}). */
        DURATION,
        /** One of {@link Leaf#words()} (or an alias in {@link Leaf#aliases()}). */
        WORD,
        /** A list of strings (numbers kept as written). */
        STRINGS,
        /** An absolute URL with one of {@link Leaf#words()} as its scheme. */
        URL
    }

    /**
     * A value.
     *
     * @param defaultValue what an absent key means (null when absent means "not set")
     * @param min          the least value of an INT or NUMBER (null: no bound)
     * @param max          the greatest value of an INT or NUMBER (null: no bound)
     * @param words        a WORD's canonical words, a URL's schemes
     * @param aliases      further words a WORD accepts
     */
    record Leaf(String name, Type type, Object defaultValue, Number min, Number max, List<String> words,
                List<String> aliases, String about) implements KeySpec {
        public Leaf {
            Objects.requireNonNull(type);
            words = List.copyOf(words);
            aliases = List.copyOf(aliases);
        }

        /** The canonical words joined for messages ("steer, followup, collect"). */
        String wordList() {
            return String.join(", ", words);
        }

        Leaf withDefault(Object value) {
            return new Leaf(name, type, value, min, max, words, aliases, about);
        }

        Leaf named(String newName) {
            return new Leaf(newName, type, defaultValue, min, max, words, aliases, about);
        }
    }

    /** A mapping with fixed keys; {@code required} names those a valid file must give. */
    record Obj(String name, List<KeySpec> keys, List<String> required, String about) implements KeySpec {
        public Obj {
            keys = List.copyOf(keys);
            required = List.copyOf(required);
        }

        /** The accepted keys, in the order of the reference. */
        List<String> keyNames() {
            return keys.stream().map(KeySpec::name).toList();
        }

        Optional<KeySpec> key(String keyName) {
            return keys.stream().filter(k -> k.name().equals(keyName)).findFirst();
        }

        /** The leaf {@code keyName}; a programming error when it is not one. */
        Leaf leaf(String keyName) {
            return (Leaf) key(keyName).orElseThrow(() -> new IllegalArgumentException(name + " has no key " + keyName));
        }

        Obj named(String newName) {
            return new Obj(newName, keys, required, about);
        }

        /** The mapping {@code keyName}; a programming error when it is not one. */
        Obj obj(String keyName) {
            return (Obj) key(keyName).orElseThrow(() -> new IllegalArgumentException(name + " has no key " + keyName));
        }
    }

    /**
     * A mapping from names the user chooses to {@code value}s; {@code fixed} keys besides (lanes:
     * {@code warnAfterMs}); {@code names}, when not null, is the closed set of names (channels);
     * {@code forbidden} names are refused.
     */
    record MapOf(String name, List<KeySpec> fixed, KeySpec value, List<String> names, List<String> forbidden,
                 String about) implements KeySpec {
        public MapOf {
            fixed = List.copyOf(fixed);
            names = names == null ? null : List.copyOf(names);
            forbidden = List.copyOf(forbidden);
        }
    }

    /** A list of {@code item}s. */
    record ListOf(String name, KeySpec item, String about) implements KeySpec {
    }

    /** A mapping whose other keys depend on the word under {@code discriminator} (an agent's provider). */
    record Variants(String name, String discriminator, Map<String, Obj> byWord, String about) implements KeySpec {
        public Variants {
            byWord = Map.copyOf(byWord);
        }
    }

    /** A single word, or a mapping (a channel's queue override: a mode, or mode, cap, ...). */
    record Either(String name, Leaf word, Obj mapping, String about) implements KeySpec {
    }
}
