package dev.laneway.config;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * {@code lanes:} the lane wait warning, and the caps of named lanes other than {@code main}
 * (whose cap is {@code agents.defaults.maxConcurrent}).
 *
 * @param warnAfter a lane wait longer than this logs one line ({@code warnAfterMs})
 * @param caps      lane name -> {@code maxConcurrent}; always holds {@code subagent}, {@code cron} and {@code fallback}
 */
public record LanesConfig(Duration warnAfter, Map<String, Integer> caps) {

    /** The caps every config starts from. */
    public static final Map<String, Integer> DEFAULT_CAPS = Immutable.orderedMap(defaultCaps());

    public static final LanesConfig DEFAULTS = new LanesConfig(Duration.ofMillis(2000), DEFAULT_CAPS);

    public LanesConfig {
        Objects.requireNonNull(warnAfter, "warnAfter");
        caps = Immutable.orderedMap(caps);
    }

    private static Map<String, Integer> defaultCaps() {
        Map<String, Integer> caps = new java.util.LinkedHashMap<>();
        caps.put("subagent", 8);
        caps.put("cron", 1);
        caps.put("fallback", 4); // degraded runs (docs/behaviour.md §13.3)
        return caps;
    }
}
