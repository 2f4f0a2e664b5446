package dev.laneway.app.ops;

import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulerSnapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code main}'s scheduler as {@code GET /status} shows it (docs/behaviour.md §11.4): mode, slots,
 * running and waiting runs per class, and the busiest tenants.
 *
 * @param mode           {@code fair} or {@code fifo}
 * @param cap            {@code main}'s slots
 * @param running        runs holding one
 * @param waiting        runs waiting for one
 * @param classes        class name → running and waiting
 * @param tenants        the busiest tenants (at most {@link #TENANTS}), busiest first
 * @param meanRunSeconds the observed mean time a run holds a slot, which estimates use
 */
public record SchedulerView(String mode, int cap, int running, int waiting, Map<String, SchedulerSnapshot.Load> classes,
                            List<SchedulerSnapshot.TenantLoad> tenants, double meanRunSeconds) {

    /** How many tenants the view lists at most. */
    public static final int TENANTS = 20;

    static SchedulerView of(SchedulerSnapshot snapshot) {
        Map<String, SchedulerSnapshot.Load> classes = new LinkedHashMap<>();
        for (PriorityClass priority : PriorityClass.values()) {
            classes.put(priority.configName(), snapshot.classes().get(priority));
        }
        List<SchedulerSnapshot.TenantLoad> tenants = snapshot.tenants().subList(0, Math.min(TENANTS, snapshot.tenants().size()));
        return new SchedulerView(snapshot.mode().configName(), snapshot.cap(), snapshot.running(), snapshot.waiting(),
                classes, List.copyOf(tenants), snapshot.meanRunTime().toMillis() / 1000.0);
    }
}
