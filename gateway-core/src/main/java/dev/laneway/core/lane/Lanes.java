package dev.laneway.core.lane;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The registry of lanes. Configured lanes ({@code subagent}, {@code cron}, ...) live forever;
 * {@code main} is not one of them in the gateway: the scheduler
 * ({@code dev.laneway.core.scheduling.MainScheduler}) hands out its slots by class and tenant. Any
 * other lane has cap 1, is created on first use and removed once unused. (A session's lane
 * {@code session:<key>} is not made here: it is the session's one active run, docs/decisions.md D89.)
 *
 * <p>Concurrency: {@code lanes} is a concurrent map; a lane is removed only after it retired
 * itself under its own lock, and {@link #acquire} retries on a retired lane, so two live lanes
 * never share a name.
 */
public final class Lanes {

    public static final String MAIN = "main";

    private final Map<String, Integer> caps;
    private final InstantSource clock;
    private final Duration warnAfter;
    private final BiConsumer<String, Duration> waitObserver;
    // lane name -> lane
    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
    // makes an unconfigured lane (cap 1, retires once unused); one function, not one per request
    private final Consumer<Lane> retire = this::maybeRetire;
    private final Function<String, Lane> newLane = this::newSessionLane;

    /** @param caps configured lane caps */
    public Lanes(Map<String, Integer> caps, InstantSource clock, Duration warnAfter) {
        this(caps, clock, warnAfter, (lane, waited) -> { });
    }

    /**
     * @param caps         configured lane caps
     * @param waitObserver told how long each grant in a configured lane waited (for metrics)
     */
    public Lanes(Map<String, Integer> caps, InstantSource clock, Duration warnAfter,
                 BiConsumer<String, Duration> waitObserver) {
        this.caps = Map.copyOf(caps);
        this.clock = clock;
        this.warnAfter = warnAfter;
        this.waitObserver = waitObserver;
        this.caps.forEach((name, cap) -> lanes.put(name, new Lane(name, cap, clock, warnAfter, lane -> { }, waitObserver)));
    }

    /**
     * Asks for a slot in the named lane; the future completes with a permit, in FIFO order.
     * Cancelling the future before it completes withdraws the request.
     */
    public CompletableFuture<LanePermit> acquire(String laneName) {
        while (true) {
            Lane lane = lane(laneName);
            CompletableFuture<LanePermit> permit = lane.tryAcquire();
            if (permit != null) {
                return permit;
            }
            lanes.remove(laneName, lane);
        }
    }

    /**
     * A slot in the named lane if one is free now and nobody waits for it, without a future (the
     * common case, and cheaper); null otherwise, and the caller asks through {@link #acquire}, which
     * queues it in FIFO order.
     */
    public LanePermit acquireIfFree(String laneName) {
        return lane(laneName).acquireIfFree();
    }

    private Lane lane(String laneName) {
        Lane lane = lanes.get(laneName);
        return lane != null ? lane : lanes.computeIfAbsent(laneName, newLane);
    }

    private Lane newSessionLane(String name) {
        return new Lane(name, 1, clock, warnAfter, retire, (unused, waited) -> { });
    }

    private void maybeRetire(Lane lane) {
        if (lane.retireIfIdle()) {
            lanes.remove(lane.name(), lane);
        }
    }

    /** The configured lanes, in name order, then any others. */
    public List<LaneSnapshot> snapshots() {
        List<LaneSnapshot> result = new ArrayList<>();
        lanes.values().forEach(lane -> result.add(lane.snapshot()));
        result.sort(Comparator.comparing((LaneSnapshot s) -> !caps.containsKey(s.name())).thenComparing(LaneSnapshot::name));
        return result;
    }

    /** The named lane's state; an unknown unconfigured lane is reported idle with cap 1. */
    public LaneSnapshot snapshot(String laneName) {
        Lane lane = lanes.get(laneName);
        return lane != null ? lane.snapshot() : new LaneSnapshot(laneName, caps.getOrDefault(laneName, 1), 0, 0);
    }

    /** How many lanes exist now (configured plus live unconfigured ones). */
    public int size() {
        return lanes.size();
    }
}
