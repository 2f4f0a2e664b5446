package dev.laneway.core.scheduling;


/**
 * What happens to a message whose estimated wait for {@code main} exceeds its class's budget when it
 * arrives (docs/behaviour.md §11.3).
 */
public enum OverBudget {
    /** Queue it and tell the sender once where they are in line and about how long it takes. */
    DEFER,
    /** Refuse it with the busy reply and a retry time; nothing is queued. */
    SHED,
    /**
     * Hand it to the agent's fallback (a smaller, faster model). Until agents have fallbacks this
     * behaves as {@link #DEFER}.
     */
    DEGRADE;

    public String configName() {
        return ConfigNames.of(this);
    }

    /** The action of a configuration name, or null for an unknown one. */
    public static OverBudget byConfigName(String name) {
        return ConfigNames.find(values(), name);
    }
}
