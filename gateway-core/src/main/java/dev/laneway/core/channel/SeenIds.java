package dev.laneway.core.channel;

/**
 * The platform ids a channel has already taken in (Telegram update ids, Slack event ids), so a
 * redelivery is handed over once. One instance keeps them in an {@link ExpiringKeys}; a fleet on
 * Redis shares them, so an event delivered to two instances is handed over by one
 * (docs/behaviour.md §17, "Ingress"). Implementations are thread-safe.
 */
public interface SeenIds {

    /**
     * Marks {@code id} seen; true when it was not seen yet: the caller is the one that hands it over.
     * Where several instances share the ids, the mark may be a short claim until {@link #taken}, so
     * an instance that dies between the two does not make the platform's redelivery a repeat.
     */
    boolean add(String id);

    /** The hand-over of {@code id} is done: remember it for the whole ttl (nothing to do where {@link #add} did). */
    default void taken(String id) {
    }

    /** Forgets {@code id} (its hand-over failed, so its redelivery must be taken); true when it was remembered. */
    boolean remove(String id);

    /**
     * Where a channel gets its seen ids: {@code kind} names the id space ({@code telegram-updates},
     * {@code slack-events}), unique per bot or app; an id is remembered for {@code ttl} (at most
     * {@code max} of them where memory is the instance's own).
     */
    @FunctionalInterface
    interface Source {
        SeenIds forKind(String kind, java.time.Duration ttl, int max);

        /** This instance's memory only: one {@link ExpiringKeys} per kind. */
        static Source local(java.time.InstantSource clock) {
            return (kind, ttl, max) -> new ExpiringKeys(clock, ttl, max);
        }
    }
}
