package dev.laneway.app.ops;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code GET /readyz}: ready when the gateway is not shutting down, the store is open
 * and every enabled channel is connected (a channel whose start failed and is being retried is
 * not); otherwise each reason in a sentence that names the part ({@code shutting down} first).
 *
 * @param channels channel name -> connected
 */
public record Readiness(boolean ready, boolean storeOpen, Map<String, Boolean> channels, List<String> reasons) {

    public Readiness {
        channels = Collections.unmodifiableMap(new LinkedHashMap<>(channels));
        reasons = List.copyOf(reasons);
    }

    /** The reason given from the moment a shutdown begins until the process ends. */
    public static final String SHUTTING_DOWN = "shutting down";

    /** The reason given while an open store's server (Redis) cannot be reached. */
    public static final String STORE_UNREACHABLE = "the session store cannot be reached";

    public static Readiness of(boolean shuttingDown, boolean storeOpen, Map<String, Boolean> channels) {
        return of(shuttingDown, storeOpen, true, channels);
    }

    /** @param storeReachable false while an open store cannot reach its server (Redis down, docs/behaviour.md §9.7) */
    public static Readiness of(boolean shuttingDown, boolean storeOpen, boolean storeReachable,
                               Map<String, Boolean> channels) {
        List<String> reasons = new ArrayList<>();
        if (shuttingDown) {
            reasons.add(SHUTTING_DOWN);
        }
        if (!storeOpen) {
            reasons.add("the session store is not open");
        } else if (!storeReachable) {
            reasons.add(STORE_UNREACHABLE);
        }
        channels.forEach((channel, connected) -> {
            if (!Boolean.TRUE.equals(connected)) {
                reasons.add("channel " + channel + " is not connected");
            }
        });
        return new Readiness(reasons.isEmpty(), storeOpen, channels, reasons);
    }
}
