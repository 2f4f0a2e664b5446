package dev.laneway.core.scheduling;

import java.time.Duration;

/** What the scheduler tells metrics. Called outside the scheduler's lock; must not throw. */
public interface SchedulingObserver {

    SchedulingObserver NONE = new SchedulingObserver() { };

    /**
     * A run got its slot of {@code main}.
     *
     * @param asked     the class it asked in
     * @param served    the class it was served in (higher than {@code asked} when it aged)
     * @param tenant    its tenant
     * @param waited    how long it waited
     * @param estimated what the scheduler estimated when it queued ({@link Duration#ZERO} when it
     *                  got a slot at once)
     */
    default void granted(PriorityClass asked, PriorityClass served, String tenant, Duration waited, Duration estimated) {
    }

    /** A waiting run moved up a class because it waited longer than the aging bound. */
    default void promoted(PriorityClass from, PriorityClass to) {
    }
}
