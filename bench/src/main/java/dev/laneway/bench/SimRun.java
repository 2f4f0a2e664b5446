package dev.laneway.bench;

import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingObserver;
import dev.laneway.core.scheduling.SchedulingSettings;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives the real {@link MainScheduler} (docs/behaviour.md §11) through one {@link SimLoad} in
 * virtual time. Each message
 * goes through its session first, as the gateway's session lane does: one run per session at a
 * time, and a message that arrives while its session has a run (waiting for {@code main} or running)
 * queues behind it as a followup and asks {@code main} when that run has ended. A run asks as
 * {@code RunDriver} does: a free slot at once ({@link MainScheduler#acquireIfFree}), else a place in
 * line ({@link MainScheduler#acquire}); it holds its slot for its drawn run time, then closes its
 * permit. Between events it adds up busy slot time, and time and busy slots while runs waited.
 * Left out: admission (with the default {@code defer} every message queues, as here; only its
 * notice is missing) and the {@code cron} lane a scheduled job holds before {@code main}
 * (docs/behaviour.md §11.5): the jobs ask {@code main} directly, all at once.
 *
 * <p>After every event it checks what must hold: the scheduler's running and waiting counts match
 * the simulation's, running never exceeds the cap, and a session never has two runs; at the end,
 * that every message ran to its end. A violation throws {@link IllegalStateException}.
 * Single-threaded: the scheduler completes grants on this thread, inside {@code acquire} and
 * {@code close}.
 */
final class SimRun {

    /** A session: its followup queue and whether it has a run (waiting or running). */
    private static final class Session {
        final ArrayDeque<SimLoad.Message> queued = new ArrayDeque<>();
        boolean hasRun;
        boolean running;
    }

    private final VirtualTime time = new VirtualTime();
    private final List<SimLoad.Message> load;
    private final MainScheduler main;
    private final int cap;
    private final Map<String, Session> sessions = new HashMap<>();
    private final List<SimOutcome.Estimate> estimates = new ArrayList<>();
    private final long[] asked;
    private final long[] granted;
    private final long[] ended;
    private int running;
    private int waiting;
    private int promotions;
    private long busySlotMillis;
    private long waitedMillis;
    private long busyWhileWaitedMillis;
    private RuntimeException failure;

    private SimRun(List<SimLoad.Message> load, SchedulingSettings settings, int cap) {
        this.load = load;
        this.cap = cap;
        SchedulingObserver observer = new SchedulingObserver() {
            @Override
            public void promoted(PriorityClass from, PriorityClass to) {
                promotions++;
            }

            @Override
            public void granted(PriorityClass asked, PriorityClass served, String tenant, Duration waited,
                                Duration estimated) {
                if (!waited.isZero() || !estimated.isZero()) { // a run that waited, or was expected to
                    estimates.add(new SimOutcome.Estimate(asked, waited.toMillis(), estimated.toMillis()));
                }
            }
        };
        this.main = new MainScheduler(settings, cap, time, Duration.ofDays(1), observer);
        asked = filled(load.size());
        granted = filled(load.size());
        ended = filled(load.size());
    }

    /** Runs the load through a scheduler of {@code settings} and {@code cap} slots until all is done. */
    static SimOutcome run(List<SimLoad.Message> load, SchedulingSettings settings, int cap) {
        return new SimRun(load, settings, cap).run();
    }

    private SimOutcome run() {
        for (SimLoad.Message message : load) {
            time.at(message.arrivalMillis(), () -> arrive(message));
        }
        while (time.hasNext()) {
            long dt = time.nextDue() - time.now();
            busySlotMillis += running * dt;
            if (waiting > 0) {
                waitedMillis += dt;
                busyWhileWaitedMillis += running * dt;
            }
            time.step();
            check();
        }
        for (SimLoad.Message message : load) {
            if (ended[message.id()] < 0) {
                throw new IllegalStateException("message " + message + " never ran to its end (asked "
                        + asked[message.id()] + ", granted " + granted[message.id()] + ")");
            }
        }
        if (running != 0 || waiting != 0 || main.laneSnapshot().active() != 0) {
            throw new IllegalStateException("runs left over at the end: running " + running + ", waiting " + waiting);
        }
        long makespan = Arrays.stream(ended).max().orElse(0);
        return new SimOutcome(main.snapshot().mode(), load, asked, granted, ended, cap, makespan, busySlotMillis,
                waitedMillis, busyWhileWaitedMillis, promotions, List.copyOf(estimates));
    }

    private void arrive(SimLoad.Message message) {
        Session session = sessions.computeIfAbsent(message.session(), key -> new Session());
        if (session.hasRun) {
            session.queued.addLast(message); // followup: after the session's run
            return;
        }
        session.hasRun = true;
        ask(message);
    }

    private void ask(SimLoad.Message message) {
        asked[message.id()] = time.now();
        Claim claim = new Claim(message.priority(), message.tenant(), message.session());
        LanePermit now = main.acquireIfFree(claim);
        if (now != null) {
            start(message, now);
            return;
        }
        waiting++;
        main.acquire(claim).thenAccept(permit -> {
            waiting--;
            start(message, permit);
        });
    }

    /** Called by the scheduler's grant (inside acquire or close): any failure is kept for {@link #check}. */
    private void start(SimLoad.Message message, LanePermit permit) {
        try {
            Session session = sessions.get(message.session());
            if (session.running) {
                throw new IllegalStateException("session " + message.session() + " got a second run at once");
            }
            session.running = true;
            running++;
            granted[message.id()] = time.now();
            time.at(time.now() + message.runMillis(), () -> end(message, permit));
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            }
        }
    }

    private void end(SimLoad.Message message, LanePermit permit) {
        ended[message.id()] = time.now();
        running--;
        Session session = sessions.get(message.session());
        session.running = false;
        permit.close();
        SimLoad.Message next = session.queued.pollFirst();
        if (next != null) {
            ask(next);
        } else {
            session.hasRun = false;
        }
    }

    private void check() {
        if (failure != null) {
            throw failure;
        }
        LaneSnapshot lane = main.laneSnapshot();
        if (lane.active() != running || lane.queued() != waiting) {
            throw new IllegalStateException("at " + time.now() + " ms the scheduler counts " + lane.active()
                    + " running and " + lane.queued() + " waiting; the simulation " + running + " and " + waiting);
        }
        if (running > cap) {
            throw new IllegalStateException("at " + time.now() + " ms " + running + " runs hold main, above its cap " + cap);
        }
    }

    private static long[] filled(int size) {
        long[] values = new long[size];
        Arrays.fill(values, -1);
        return values;
    }
}
