package dev.laneway.core.scheduling;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code main} at one moment, for {@code GET /status} and {@code /status}.
 *
 * @param mode        fair or fifo
 * @param cap         its slots
 * @param running     runs holding a slot
 * @param waiting     runs waiting for one
 * @param classes     running and waiting per class
 * @param tenants     every tenant with a run running or waiting, busiest first
 * @param meanRunTime the observed mean time a run holds a slot (what estimates use)
 */
public record SchedulerSnapshot(SchedulingSettings.Mode mode, int cap, int running, int waiting,
                                Map<PriorityClass, Load> classes, List<TenantLoad> tenants, Duration meanRunTime) {

    /** Runs running and waiting. */
    public record Load(int running, int waiting) {
    }

    /** One tenant's runs running and waiting. */
    public record TenantLoad(String tenant, int running, int waiting) {
    }
}
