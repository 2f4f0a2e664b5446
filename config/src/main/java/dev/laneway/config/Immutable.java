package dev.laneway.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Unmodifiable copies that keep the file's order (unlike {@link Map#copyOf}). */
final class Immutable {

    private Immutable() {
    }

    static <K, V> Map<K, V> orderedMap(Map<K, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
