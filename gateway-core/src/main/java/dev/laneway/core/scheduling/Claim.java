package dev.laneway.core.scheduling;

import java.util.Objects;

/**
 * What a run asks {@code main} for: its class, its tenant (whose fair share it draws on) and its
 * session (so {@code /status} can find it while it waits).
 *
 * @param priority the run's class when it asked (it may be promoted while it waits)
 * @param tenant   the tenant id (see {@link Tenants})
 * @param session  the session key's value
 */
public record Claim(PriorityClass priority, String tenant, String session) {

    public Claim {
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(session, "session");
    }
}
