package dev.laneway.core.channel;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * A bounded map whose entries expire {@code ttl} after they were last {@link #put}: the one
 * implementation of "remembered for a while" under {@link ExpiringKeys} and the channels' small
 * stateful caches (Discord's pending interactions). Entries are kept in last-put order, so expiry
 * and the size bound only ever look at the head: each call costs what it expires, nothing more.
 * Beyond {@code max} entries the oldest is forgotten early.
 *
 * <p>Not thread-safe: its owner guards it (every user holds it under its own lock).
 *
 * @param <V> what is remembered with each key
 */
public final class ExpiringEntries<V> {

    private final InstantSource clock;
    private final Duration ttl;
    private final int max;
    // key -> its value and when it was last put; oldest first
    private final LinkedHashMap<String, Stamped<V>> entries = new LinkedHashMap<>();

    /** @throws IllegalArgumentException when {@code ttl} is not positive or {@code max} is below 1 */
    public ExpiringEntries(InstantSource clock, Duration ttl, int max) {
        this.clock = Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttl);
        }
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1, got " + max);
        }
        this.ttl = ttl;
        this.max = max;
    }

    /** The value remembered for {@code key}, or null. */
    public V get(String key) {
        expire();
        Stamped<V> entry = entries.get(key);
        return entry == null ? null : entry.value();
    }

    public boolean containsKey(String key) {
        return get(key) != null;
    }

    /** Remembers {@code value} for {@code key} from now on (the key's ttl starts again); returns the value it replaced, or null. */
    public V put(String key, V value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Instant now = expire();
        Stamped<V> before = entries.remove(key);
        entries.put(key, new Stamped<>(value, now));
        if (entries.size() > max) {
            Iterator<String> oldest = entries.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        return before == null ? null : before.value();
    }

    /** Remembers {@code value} unless {@code key} is already remembered; true when it was added. */
    public boolean putIfAbsent(String key, V value) {
        if (get(key) != null) {
            return false;
        }
        put(key, value);
        return true;
    }

    /** Replaces the value of a remembered key, keeping its age; false (nothing changes) when it is not remembered. */
    public boolean replace(String key, V value) {
        Objects.requireNonNull(value, "value");
        expire();
        Stamped<V> entry = entries.get(key);
        if (entry == null) {
            return false;
        }
        entries.put(key, new Stamped<>(value, entry.since()));
        return true;
    }

    /** Replaces every value with {@code function}'s result, keeping ages. */
    public void replaceAll(BiFunction<String, V, V> function) {
        expire();
        entries.replaceAll((key, entry) -> new Stamped<>(Objects.requireNonNull(function.apply(key, entry.value())),
                entry.since()));
    }

    /** Forgets {@code key}; returns its value, or null. */
    public V remove(String key) {
        expire();
        Stamped<V> removed = entries.remove(key);
        return removed == null ? null : removed.value();
    }

    public int size() {
        expire();
        return entries.size();
    }

    /** Drops the entries whose ttl has passed; returns now. */
    private Instant expire() {
        Instant now = clock.instant();
        Iterator<Map.Entry<String, Stamped<V>>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            if (it.next().getValue().since().plus(ttl).isAfter(now)) {
                break;
            }
            it.remove();
        }
        return now;
    }

    private record Stamped<V>(V value, Instant since) {
    }
}
