package dev.laneway.app.ops;

import dev.laneway.agents.pool.PoolSnapshot;
import dev.laneway.core.engine.ConversationSnapshot;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.jobs.JobStatus;
import dev.laneway.core.lane.LaneSnapshot;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One snapshot of what the operator console shows (docs/behaviour.md §18), sent as the stream's
 * {@code snapshot} event about once a second: built from the same engine getters as
 * {@code GET /status}, plus the conversations with their queues, the provider pools' 429 counts and
 * the charts. Holds no configuration value and no message text.
 *
 * @param at              when it was taken (epoch millis)
 * @param busySessions    sessions that have any work
 * @param pendingMessages accepted messages not finished yet
 * @param lanes           the configured lanes, {@code main} first
 * @param scheduler       {@code main}'s classes: cap, running and waiting per class
 * @param providers       the provider pools with their 429s
 * @param conversations   the busy sessions, those with the most queued first, at most {@value #CONVERSATIONS}
 * @param jobs            the scheduled jobs as {@code GET /status} lists them (paused ones marked)
 * @param channels        channel name -> connected
 * @param chart           the last minutes, one point a second: all of them in a console's first snapshot,
 *                        the last {@value #RECENT_POINTS} in the others (a console merges them by {@code at})
 */
record ConsoleView(long at, int busySessions, int pendingMessages, List<LaneSnapshot> lanes, SchedulerView scheduler,
                   List<Provider> providers, List<Conversation> conversations, List<StatusView.Job> jobs,
                   Map<String, Boolean> channels, List<ConsoleHistory.Point> chart) {

    /** How many conversations a snapshot lists at most. */
    static final int CONVERSATIONS = 100;
    /** How many chart points a snapshot after the first carries: a console that missed a few still gets them. */
    static final int RECENT_POINTS = 5;

    /** A provider pool as {@code GET /status} shows it, with the 429s that paused it since start. */
    record Provider(String name, int limit, int maxConcurrent, int running, int waiting, String pausedUntil,
                    String circuit, long rateLimited) {
    }

    /**
     * A busy session.
     *
     * @param oldestWaitSeconds how long its oldest queued message has waited, or null when nothing is queued
     */
    record Conversation(String session, String state, boolean running, int queued, String mode, Long oldestWaitSeconds) {
    }

    /** @param allPoints every chart point kept, else the last {@value #RECENT_POINTS} */
    static ConsoleView of(Gateway gateway, Map<String, Boolean> channels, List<JobStatus> jobs, List<PoolSnapshot> pools,
                          MeterRegistry registry, ConsoleHistory history, Instant now, boolean allPoints) {
        List<ConsoleHistory.Point> points = history.points();
        StatusView status = StatusView.of(gateway, channels, List.of(), List.of());
        return new ConsoleView(now.toEpochMilli(), status.busySessions(), status.pendingMessages(), status.lanes(),
                status.scheduler(), pools.stream().map(pool -> provider(pool, registry)).toList(),
                conversations(gateway, now), jobs.stream().map(StatusView.Job::of).toList(), status.channels(),
                allPoints ? points : points.subList(Math.max(0, points.size() - RECENT_POINTS), points.size()));
    }

    private static Provider provider(PoolSnapshot pool, MeterRegistry registry) {
        Counter counter = registry.find(MetricNames.PROVIDER_RATE_LIMITED).tag("provider", pool.name()).counter();
        ProviderView view = ProviderView.of(pool);
        return new Provider(view.name(), view.limit(), view.maxConcurrent(), view.running(), view.waiting(),
                view.pausedUntil(), view.circuit(), counter == null ? 0 : (long) counter.count());
    }

    private static List<Conversation> conversations(Gateway gateway, Instant now) {
        return gateway.conversations().stream()
                .sorted(Comparator.comparingInt(ConversationSnapshot::queued).reversed())
                .limit(CONVERSATIONS)
                .map(c -> new Conversation(c.session().value(), c.state(), c.running(), c.queued(),
                        c.mode() == null ? null : c.mode().id(),
                        c.oldestQueuedAt() == null ? null : Math.max(0, Duration.between(c.oldestQueuedAt(), now).toSeconds())))
                .toList();
    }
}
