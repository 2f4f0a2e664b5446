package dev.laneway.app.ops;

import dev.laneway.agents.pool.PoolSnapshot;
import dev.laneway.core.SessionKey;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.jobs.JobStatus;
import dev.laneway.core.lane.LaneSnapshot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The body of {@code GET /status}: what the queue is doing now. Holds no configuration values
 * beyond lane caps, so it cannot leak a secret.
 *
 * @param lanes           the configured lanes, {@code main} first: cap, active, queued
 * @param sessions        busy sessions by state ({@code running}, {@code draining}, {@code debouncing}); idle ones are not kept
 * @param busySessions    sessions that have any work
 * @param pendingMessages accepted messages not finished yet (the admission counter)
 * @param maxPendingRuns  the admission cap, or null when disabled
 * @param deepestQueues   the sessions with the most queued messages, deepest first, at most {@value #DEEPEST}
 * @param channels        channel name -> connected
 * @param scheduler       {@code main}'s classes and busiest tenants (docs/behaviour.md §11.4)
 * @param jobs            the scheduled jobs, in config order, with their next and last fire (docs/behaviour.md §12)
 * @param providers       the provider pools: limit, calls running and waiting, pause, circuit (docs/behaviour.md §14.6)
 * @param fleet           this instance in its fleet (docs/behaviour.md §17), or null for a single instance
 */
public record StatusView(List<LaneSnapshot> lanes, Map<String, Integer> sessions, int busySessions,
                         int pendingMessages, Integer maxPendingRuns, List<QueueDepth> deepestQueues,
                         Map<String, Boolean> channels, SchedulerView scheduler, List<Job> jobs,
                         List<ProviderView> providers, FleetView fleet) {

    /** How many queues {@link #deepestQueues} lists at most. */
    public static final int DEEPEST = 10;

    public StatusView {
        lanes = List.copyOf(lanes);
        sessions = Collections.unmodifiableMap(new TreeMap<>(sessions));
        deepestQueues = List.copyOf(deepestQueues);
        channels = Collections.unmodifiableMap(new LinkedHashMap<>(channels));
        jobs = List.copyOf(jobs);
        providers = List.copyOf(providers);
    }

    /** A snapshot of the gateway now; {@code channels} is channel name -> connected. */
    public static StatusView of(Gateway gateway, Map<String, Boolean> channels) {
        return of(gateway, channels, List.of());
    }

    /** A snapshot of the gateway and its scheduled jobs now. */
    public static StatusView of(Gateway gateway, Map<String, Boolean> channels, List<JobStatus> jobs) {
        return of(gateway, channels, jobs, List.of());
    }

    /** A snapshot of the gateway, its scheduled jobs and its provider pools now. */
    public static StatusView of(Gateway gateway, Map<String, Boolean> channels, List<JobStatus> jobs,
                                List<PoolSnapshot> pools) {
        return of(gateway, channels, jobs, pools, null);
    }

    /** ... and its fleet (null for a single instance). */
    public static StatusView of(Gateway gateway, Map<String, Boolean> channels, List<JobStatus> jobs,
                                List<PoolSnapshot> pools, FleetView fleet) {
        int cap = gateway.settings().maxPendingRuns();
        return new StatusView(configuredLanes(gateway), sessionsByState(gateway), gateway.busySessions(),
                gateway.pendingMessages(), cap == 0 ? null : cap, deepestQueues(gateway), channels,
                SchedulerView.of(gateway.scheduler()), jobs.stream().map(Job::of).toList(),
                pools.stream().map(ProviderView::of).toList(), fleet);
    }

    private static List<LaneSnapshot> configuredLanes(Gateway gateway) {
        Map<String, LaneSnapshot> byName = new HashMap<>();
        gateway.lanes().forEach(lane -> byName.put(lane.name(), lane));
        List<LaneSnapshot> lanes = new ArrayList<>();
        for (String name : GatewayGauges.configuredLanes(gateway)) {
            if (byName.containsKey(name)) {
                lanes.add(byName.get(name));
            }
        }
        return lanes;
    }

    /** Every known state, zero included, so the shape does not change with the load. */
    private static Map<String, Integer> sessionsByState(Gateway gateway) {
        Map<String, Integer> sessions = new TreeMap<>();
        GatewayGauges.SESSION_STATES.forEach(state -> sessions.put(state, 0));
        sessions.putAll(gateway.sessionStates());
        sessions.remove("idle");
        return sessions;
    }

    private static List<QueueDepth> deepestQueues(Gateway gateway) {
        List<QueueDepth> deepest = new ArrayList<>();
        for (Map.Entry<SessionKey, Integer> entry : gateway.queueDepths().entrySet()) {
            if (deepest.size() == DEEPEST || entry.getValue() == 0) {
                break;
            }
            deepest.add(new QueueDepth(entry.getKey().value(), entry.getValue()));
        }
        return deepest;
    }

    /**
     * One scheduled job: times as ISO-8601 instants (UTC), null when there is none.
     *
     * @param target      {@code <channel> chat <id>}, with {@code thread <id>} when it has one
     * @param skippedBusy fires skipped since start because the target session was busy
     * @param paused      paused from the operator console (docs/behaviour.md §18)
     */
    public record Job(String id, String target, String schedule, String nextFire, String lastFire, long skippedBusy,
                      boolean paused) {

        static Job of(JobStatus job) {
            return new Job(job.id(), job.target().toString(), job.schedule(),
                    job.nextFire() == null ? null : job.nextFire().toString(),
                    job.lastFire() == null ? null : job.lastFire().toString(), job.skippedBusy(), job.paused());
        }
    }

    /** One session's queued message count. */
    public record QueueDepth(String session, int depth) {
    }
}
