package dev.laneway.core.scheduling;

import java.util.Objects;

/**
 * What a run asks {@code main} for: its class, its tenant (whose fair share it draws on) and its
 * session (so {@code /status} can find it while it waits). A value: two claims are equal when their
 * class, tenant and session are.
 *
 * <p>It also remembers the scheduler's {@link Tenant} it was last granted as ({@link #resolved}), so
 * a session that reuses its claim run after run (docs/decisions.md D218) finds its tenant without a
 * map lookup (docs/decisions.md D237). That cache is not part of the value; it is read and written by
 * {@link MainScheduler} only, and a stale one (another scheduler's, or a tenant swept meanwhile) is
 * looked up again. Thread-safe: the fields of the value are final and the cache is volatile.
 */
public final class Claim {

    private final PriorityClass priority;
    private final String tenant;
    private final String session;
    /** The tenant it was last resolved to by the scheduler that owns it, or null (see the class comment). */
    volatile Tenant resolved;

    /**
     * @param priority the run's class when it asked (it may be promoted while it waits)
     * @param tenant   the tenant id (see {@link Tenants})
     * @param session  the session key's value
     */
    public Claim(PriorityClass priority, String tenant, String session) {
        this.priority = Objects.requireNonNull(priority, "priority");
        this.tenant = Objects.requireNonNull(tenant, "tenant");
        this.session = Objects.requireNonNull(session, "session");
    }

    /** The run's class when it asked (it may be promoted while it waits). */
    public PriorityClass priority() {
        return priority;
    }

    /** The tenant id (see {@link Tenants}). */
    public String tenant() {
        return tenant;
    }

    /** The session key's value. */
    public String session() {
        return session;
    }

    /** This claim with another class: the same tenant and session, and the tenant it was resolved to. */
    public Claim withPriority(PriorityClass other) {
        if (other == priority) {
            return this;
        }
        Claim claim = new Claim(other, tenant, session);
        claim.resolved = resolved;
        return claim;
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof Claim other && priority == other.priority && tenant.equals(other.tenant)
                && session.equals(other.session);
    }

    @Override
    public int hashCode() {
        return (31 * priority.hashCode() + tenant.hashCode()) * 31 + session.hashCode();
    }

    @Override
    public String toString() {
        return "Claim[priority=" + priority + ", tenant=" + tenant + ", session=" + session + "]";
    }
}
