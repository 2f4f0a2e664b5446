package dev.laneway.store.redis;

/**
 * The key layout of a fleet in Redis, in one place (docs/architecture.md §7.1). Every key of fleet
 * {@code F} starts with {@code laneway:{F}:}; the braces make {@code F} a Redis Cluster hash tag,
 * so all of a fleet's keys live in one slot and a script may touch any of them. The one key without
 * a fleet is {@link #FLEET_CLAIM}, which says which fleet owns the database.
 *
 * <pre>
 * laneway:fleet                  string  the fleet that owns this database (set once, never changed)
 * laneway:{F}:meta               hash    schema (layout version), fleet, created (epoch ms)
 * laneway:{F}:seq                string  highest sequence number ever appended (never lowered)
 * laneway:{F}:journal            hash    seq -> entry JSON, for every pending message
 * laneway:{F}:pending            zset    seq scored by seq: the pending messages in order
 * laneway:{F}:pending-keys       hash    message key -> seq, for pending messages that have a key
 * laneway:{F}:live:&lt;seq&gt;        hash    platform message id -> live message JSON: a pending message's
 *                                        streamed answer, marked interrupted after a crash (deleted by its settle)
 * laneway:{F}:answered           zset    message key scored by when it was answered (epoch ms): the
 *                                        answered ledger, trimmed to the retention
 * laneway:{F}:overrides          hash    session key -> /queue override JSON
 * laneway:{F}:history:&lt;session&gt;  list    history entry JSON, oldest first, trimmed to the cap
 * laneway:{F}:fires              hash    job id -> last fire (ISO-8601 instant, to the nanosecond)
 * laneway:{F}:session-pending:&lt;session&gt;  zset  the session's pending seqs (its index, for a fleet)
 * laneway:{F}:pending-sessions   zset    sessions with pending messages, scored by their oldest seq
 * laneway:{F}:nudges:&lt;id&gt;        stream  sessions with messages for instance id (consumer group "laneway"),
 *                                        and other instances' stop requests (command=stop)
 * laneway:{F}:stop:&lt;session&gt;     string  the session's stop mark: its messages up to this seq are never run
 *                                        (a /stop, decision D233; expires after 24 h)
 * laneway:{F}:fence              string  the last fencing token handed out (INCR; never lowered)
 * laneway:{F}:lease:&lt;session&gt;    hash    instance, token: who may run the session; expires (PX) unless renewed
 * laneway:{F}:instance:&lt;id&gt;      hash    a live instance (started, host); expires unless its heartbeat renews it
 * laneway:{F}:instances          zset    instance id scored by its last heartbeat (Redis's clock, ms)
 * laneway:{F}:permits:&lt;name&gt;     zset    "instance/permit" scored by when the permit expires (Redis's clock, ms)
 * laneway:{F}:demand:&lt;name&gt;      hash    instance -&gt; "demand:expires" (Redis's clock, ms): who wants the cap, for its fair share
 * laneway:{F}:refused:&lt;name&gt;     hash    instance -&gt; until when (Redis's clock, ms): refused a permit of the cap lately
 * laneway:{F}:seen:&lt;kind&gt;:&lt;id&gt;  string  a platform id an instance took in (SET NX PX): Telegram updates, Slack events
 * </pre>
 *
 * The fleet's keys are in docs/architecture.md §7.1. Reserved, not written yet:
 * {@code ingress:<channel>:<account>}, {@code inbox:<session>}.
 */
final class RedisKeys {

    /** Names the fleet that owns the database; the only key outside a fleet's prefix. */
    static final String FLEET_CLAIM = "laneway:fleet";

    /** The key layout's version, in {@link #meta()}'s {@code schema} field. */
    static final int SCHEMA = 1;

    private final String fleet;
    private final String prefix;

    RedisKeys(String fleet) {
        this.fleet = fleet;
        this.prefix = "laneway:{" + fleet + "}:";
    }

    String fleet() {
        return fleet;
    }

    String prefix() {
        return prefix;
    }

    String meta() {
        return prefix + "meta";
    }

    String seq() {
        return prefix + "seq";
    }

    String journal() {
        return prefix + "journal";
    }

    String pending() {
        return prefix + "pending";
    }

    String pendingKeys() {
        return prefix + "pending-keys";
    }

    String answered() {
        return prefix + "answered";
    }

    /** The live messages of one pending message's streamed answer (docs/behaviour.md §16.3). */
    String live(long seq) {
        return prefix + "live:" + seq;
    }

    String overrides() {
        return prefix + "overrides";
    }

    String history(String session) {
        return prefix + "history:" + session;
    }

    String fires() {
        return prefix + "fires";
    }

    /** The pending seqs of one session, scored by seq. */
    String sessionPending(String session) {
        return prefix + "session-pending:" + session;
    }

    /** The sessions with pending messages, scored by their oldest pending seq. */
    String pendingSessions() {
        return prefix + "pending-sessions";
    }

    /** An instance's nudge stream: sessions with messages for it to pick up. */
    String nudges(String instance) {
        return prefix + "nudges:" + instance;
    }

    String fence() {
        return prefix + "fence";
    }

    String stop(String session) {
        return prefix + "stop:" + session;
    }

    String lease(String session) {
        return prefix + "lease:" + session;
    }

    String instance(String id) {
        return prefix + "instance:" + id;
    }

    String instances() {
        return prefix + "instances";
    }

    String permits(String name) {
        return prefix + "permits:" + name;
    }

    /** Instances refused a permit of the cap {@code name} lately (docs/decisions.md D228). */
    String refused(String name) {
        return prefix + "refused:" + name;
    }

    /** Each instance's published demand for the cap {@code name} (docs/decisions.md D228). */
    String demand(String name) {
        return prefix + "demand:" + name;
    }

    /** A platform id taken in by some instance of the fleet (docs/behaviour.md §17, "Ingress"). */
    String seen(String kind, String id) {
        return prefix + "seen:" + kind + ":" + id;
    }
}
