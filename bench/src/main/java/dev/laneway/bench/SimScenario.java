package dev.laneway.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The load of the scheduling simulation (issue 15's benchmark): a model endpoint of {@code cap}
 * concurrent runs whose run times are lognormal, DM users, one guild that floods for a while, and
 * scheduled jobs released at once.
 *
 * @param cap                 {@code main}'s slots: the model endpoint's concurrency
 * @param medianRunMillis     the run time's median (lognormal)
 * @param runSigma            the lognormal's sigma (the spread of ln(run time)); 0.8 gives a mean of
 *                            1.38 × the median and a p99 of 6.4 × the median
 * @param dmUsers             DM users, each its own tenant and session, every message interactive
 * @param dmLoad              the share of main's capacity the DMs ask for together (Poisson arrivals)
 * @param guildChannels       the guild's channels: its sessions (one tenant)
 * @param guildMentionShare   the share of the guild's messages that mention the bot (interactive); the
 *                            rest are normal
 * @param floodFactor         the guild's rate during the flood, in multiples of its fair share (one
 *                            tenant's equal share of main among the DM users and the guild); outside the
 *                            flood it sends at its fair share
 * @param floodStartMillis    the flood's start
 * @param floodEndMillis      the flood's end
 * @param backgroundAtMillis  when the scheduled jobs are released, all at once, in a random order
 * @param backgroundJobs      scheduled jobs per background tenant (each job its own session)
 * @param loadEndMillis       DMs and the guild send until then; the simulation runs until all is done
 */
record SimScenario(int cap, long medianRunMillis, double runSigma, int dmUsers, double dmLoad, int guildChannels,
                   double guildMentionShare, double floodFactor, long floodStartMillis, long floodEndMillis,
                   long backgroundAtMillis, int[] backgroundJobs, long loadEndMillis) {

    SimScenario {
        if (cap < 1 || medianRunMillis < 1 || runSigma < 0 || dmUsers < 1 || guildChannels < 1) {
            throw new IllegalArgumentException("cap, median run time, DM users and guild channels must be positive");
        }
        if (!(floodStartMillis <= floodEndMillis && floodEndMillis <= loadEndMillis)) {
            throw new IllegalArgumentException("the flood must lie within the load");
        }
        if (!(floodFactor > 0 && dmLoad > 0)) {
            throw new IllegalArgumentException("the flood factor and the DM load must be positive");
        }
        backgroundJobs = backgroundJobs.clone();
    }

    /**
     * Issue 15's load: cap 4; run times lognormal with median 1.2 s and sigma 0.8 (mean 1.65 s); 50 DM
     * users asking 30% of main together; a guild of 8 channels (10% of its messages mention the bot)
     * flooding at 10× its fair share from 60 s to 300 s; 500 scheduled jobs of 5 tenants (200, 125,
     * 100, 50 and 25 jobs) released at 30 s; DMs and the guild send until 360 s.
     */
    static SimScenario issue15() {
        return new SimScenario(4, 1_200, 0.8, 50, 0.30, 8, 0.10, 10, 60_000, 300_000, 30_000,
                new int[] {200, 125, 100, 50, 25}, 360_000);
    }

    @Override
    public int[] backgroundJobs() {
        return backgroundJobs.clone();
    }

    /** This load with the guild flooding at {@code factor} × its fair share. */
    SimScenario withFloodFactor(double factor) {
        return new SimScenario(cap, medianRunMillis, runSigma, dmUsers, dmLoad, guildChannels, guildMentionShare, factor,
                floodStartMillis, floodEndMillis, backgroundAtMillis, backgroundJobs, loadEndMillis);
    }

    /** The mean run time of the distribution: median × e^(σ²/2). */
    double meanRunMillis() {
        return medianRunMillis * Math.exp(runSigma * runSigma / 2);
    }

    /** Runs per second main completes when every slot is busy. */
    double capacityPerSecond() {
        return cap * 1000.0 / meanRunMillis();
    }

    /** One DM user's messages per second. */
    double dmRatePerUser() {
        return dmLoad * capacityPerSecond() / dmUsers;
    }

    /** The guild's fair share in messages per second: main's capacity over the DM users and the guild. */
    double guildFairRate() {
        return capacityPerSecond() / (dmUsers + 1);
    }

    int backgroundTotal() {
        return Arrays.stream(backgroundJobs).sum();
    }

    String describe() {
        return String.format(Locale.ROOT, "main cap %d; run times lognormal, median %.1f s, sigma %.1f (mean %.2f s);"
                        + " %d DM users (each its own tenant and session, interactive), Poisson, %.0f%% of main's capacity"
                        + " together (one message every %.0f s each); one guild (one tenant) of %d channels (its"
                        + " sessions), %.0f%% of its messages mention the bot (interactive), the rest normal, Poisson at"
                        + " its fair share (main's capacity over the %d tenants that chat: %.3f msgs/s) and at %.0f×"
                        + " that from %.0f s to %.0f s; %d scheduled jobs (background, each its own session) of %d"
                        + " tenants (%s jobs) released at once at %.0f s in a random order; DMs and the guild send"
                        + " until %.0f s",
                cap, medianRunMillis / 1000.0, runSigma, meanRunMillis() / 1000, dmUsers, dmLoad * 100,
                1 / dmRatePerUser(), guildChannels, guildMentionShare * 100, dmUsers + 1, guildFairRate(), floodFactor,
                floodStartMillis / 1000.0, floodEndMillis / 1000.0, backgroundTotal(), backgroundJobs.length,
                String.join(", ", Arrays.stream(backgroundJobs).mapToObj(String::valueOf).toList()),
                backgroundAtMillis / 1000.0, loadEndMillis / 1000.0);
    }
}
