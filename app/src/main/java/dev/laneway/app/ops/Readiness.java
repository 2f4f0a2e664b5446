package dev.laneway.app.ops;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code GET /readyz}: ready when the store is open and every enabled channel is
 * connected; otherwise each reason in a sentence that names the part.
 *
 * @param channels channel name -> connected
 */
public record Readiness(boolean ready, boolean storeOpen, Map<String, Boolean> channels, List<String> reasons) {

    public Readiness {
        channels = Collections.unmodifiableMap(new LinkedHashMap<>(channels));
        reasons = List.copyOf(reasons);
    }

    public static Readiness of(boolean storeOpen, Map<String, Boolean> channels) {
        List<String> reasons = new ArrayList<>();
        if (!storeOpen) {
            reasons.add("the session store is not open");
        }
        channels.forEach((channel, connected) -> {
            if (!Boolean.TRUE.equals(connected)) {
                reasons.add("channel " + channel + " is not connected");
            }
        });
        return new Readiness(reasons.isEmpty(), storeOpen, channels, reasons);
    }
}
