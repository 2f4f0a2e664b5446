package dev.laneway.core.scheduling;

import dev.laneway.core.lane.LanePermit;
import java.util.concurrent.CompletableFuture;

/**
 * A run waiting for a slot of {@code main}. Every field but {@code future} is guarded by the
 * {@link MainScheduler}'s lock.
 */
final class Waiter {

    final Claim claim;
    final Tenant tenant;
    final long enqueuedAtMillis;
    /** What the scheduler expected when it queued, for the estimate-error metric. */
    final long estimatedWaitMillis;
    /** How many waited ahead of it when it queued (the long-wait log line says so). */
    final int aheadAtEnqueue;
    final CompletableFuture<LanePermit> future = new CompletableFuture<>();
    /** The class it waits in now: its claim's, or one higher once it aged. */
    PriorityClass priority;
    /** True until it is granted or withdrawn. */
    boolean waiting = true;

    Waiter(Claim claim, PriorityClass priority, Tenant tenant, long enqueuedAtMillis, WaitEstimate estimate) {
        this.claim = claim;
        this.priority = priority;
        this.tenant = tenant;
        this.enqueuedAtMillis = enqueuedAtMillis;
        this.estimatedWaitMillis = estimate.expected().toMillis();
        this.aheadAtEnqueue = estimate.ahead();
    }
}
