package dev.laneway.bench;

import dev.laneway.core.scheduling.PriorityClass;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * One load of the scheduling simulation, drawn from a {@link SimScenario} and a seed: every message
 * with its arrival time, class, tenant, session and run time. The same load goes through both
 * scheduling modes, so they see the same arrivals and the same work. Each source draws from its own
 * {@link Random} (a specified generator, so a seed gives the same load on every JDK), and the
 * messages are numbered in arrival order (ties in the order drawn: DMs, the guild, then the jobs in
 * their shuffled release order).
 */
final class SimLoad {

    /** Where a message comes from. */
    enum Source {
        DM, GUILD, GUILD_MENTION, BACKGROUND
    }

    /** One message: it asks {@code main} for one run of {@code runMillis} (followup: its own run). */
    record Message(int id, long arrivalMillis, Source source, PriorityClass priority, String tenant, String session,
                   long runMillis) {
    }

    private SimLoad() {
    }

    static List<Message> draw(SimScenario scenario, long seed) {
        List<Message> drawn = new ArrayList<>();
        Random runTimes = random(seed, 1);
        Random dm = random(seed, 2);
        for (int user = 0; user < scenario.dmUsers(); user++) {
            String id = "dm-" + user;
            for (long at : poisson(dm, 0, scenario.loadEndMillis(), scenario.dmRatePerUser())) {
                drawn.add(new Message(-1, at, Source.DM, PriorityClass.INTERACTIVE, id, id, runTime(scenario, runTimes)));
            }
        }
        Random guild = random(seed, 3);
        double fair = scenario.guildFairRate();
        List<Long> guildArrivals = new ArrayList<>(poisson(guild, 0, scenario.floodStartMillis(), fair));
        guildArrivals.addAll(poisson(guild, scenario.floodStartMillis(), scenario.floodEndMillis(),
                fair * scenario.floodFactor()));
        guildArrivals.addAll(poisson(guild, scenario.floodEndMillis(), scenario.loadEndMillis(), fair));
        for (long at : guildArrivals) {
            String channel = "guild-c" + guild.nextInt(scenario.guildChannels());
            boolean mention = guild.nextDouble() < scenario.guildMentionShare();
            drawn.add(new Message(-1, at, mention ? Source.GUILD_MENTION : Source.GUILD,
                    mention ? PriorityClass.INTERACTIVE : PriorityClass.NORMAL, "guild", channel,
                    runTime(scenario, runTimes)));
        }
        List<Message> jobs = new ArrayList<>();
        int[] perTenant = scenario.backgroundJobs();
        for (int tenant = 0; tenant < perTenant.length; tenant++) {
            for (int job = 0; job < perTenant[tenant]; job++) {
                jobs.add(new Message(-1, scenario.backgroundAtMillis(), Source.BACKGROUND, PriorityClass.BACKGROUND,
                        "jobs-" + tenant, "jobs-" + tenant + "-" + job, runTime(scenario, runTimes)));
            }
        }
        Collections.shuffle(jobs, random(seed, 4));
        drawn.addAll(jobs);
        List<Message> sorted = new ArrayList<>(drawn);
        sorted.sort(Comparator.comparingLong(Message::arrivalMillis)); // stable: ties keep the drawn order
        List<Message> load = new ArrayList<>(sorted.size());
        for (Message m : sorted) {
            load.add(new Message(load.size(), m.arrivalMillis(), m.source(), m.priority(), m.tenant(), m.session(),
                    m.runMillis()));
        }
        return List.copyOf(load);
    }

    private static Random random(long seed, int stream) {
        return new Random(seed * 0x9E3779B97F4A7C15L + stream);
    }

    /** Arrival times in [from, to) of a Poisson process of {@code perSecond}, in whole milliseconds. */
    private static List<Long> poisson(Random random, long from, long to, double perSecond) {
        List<Long> times = new ArrayList<>();
        double meanGapMillis = 1000 / perSecond;
        double t = from;
        while (true) {
            t += -StrictMath.log(1 - random.nextDouble()) * meanGapMillis;
            long at = (long) t;
            if (at >= to) {
                return times;
            }
            times.add(at);
        }
    }

    /** A lognormal run time in whole milliseconds, at least 1. */
    private static long runTime(SimScenario scenario, Random random) {
        double millis = scenario.medianRunMillis() * StrictMath.exp(scenario.runSigma() * random.nextGaussian());
        return Math.max(1, Math.round(millis));
    }
}
