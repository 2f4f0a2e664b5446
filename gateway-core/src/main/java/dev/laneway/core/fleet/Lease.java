package dev.laneway.core.fleet;

import dev.laneway.core.SessionKey;
import java.util.Objects;

/**
 * The right to run one session, held by one instance of a fleet (docs/behaviour.md §17). The
 * {@code token} is the fencing token: a number the fleet never hands out twice and only ever
 * raises, so a write carrying an older token than the session's current one is refused
 * (docs/architecture.md §7.1). A single instance's lease ({@link SessionLeases#LOCAL}) has token 0,
 * which fences nothing.
 *
 * @param session the session the lease is for
 * @param token   the fencing token, 0 for a single instance's lease
 */
public record Lease(SessionKey session, long token) {

    public Lease {
        Objects.requireNonNull(session, "session");
        if (token < 0) {
            throw new IllegalArgumentException("token must not be negative: " + token);
        }
    }

    /** Whether writes under this lease are checked against the fleet's current token. */
    public boolean fenced() {
        return token > 0;
    }
}
