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

    /**
     * As {@link #add}, telling a repeat from an id whose hand-over is still in flight elsewhere:
     * {@link Claim#NEW} (the caller hands it over), {@link Claim#SEEN} (handed over: a repeat) or
     * {@link Claim#PENDING} (claimed by a live instance that has not handed it over yet, so the
     * message may not be journaled: the caller must not answer it as a repeat).
     * Where the ids are this instance's own, a hand-over is never in flight elsewhere.
     */
    default Claim claim(String id) {
        return add(id) ? Claim.NEW : Claim.SEEN;
    }

    /** What {@link #claim} found (docs/behaviour.md §17, "Ingress"; docs/decisions.md D184). */
    enum Claim {
        /** Not seen, or claimed by an instance that is gone: the caller now holds the claim and hands it over. */
        NEW,
        /** Handed over (its message is in the gateway's hands): a repeat. */
        SEEN,
        /** Claimed by a live instance whose hand-over is not confirmed yet: neither new nor a safe repeat. */
        PENDING
    }

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
