package dev.laneway.channels.discord;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.IngressElection;
import dev.laneway.core.fleet.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which instance of a fleet connects which Discord shard (docs/behaviour.md §17, "Ingress"; D220):
 * the fleet's {@link IngressElection} over one lease per shard,
 * {@code ingress:discord:<16 hex of the token's SHA-256>:shard-<i>-of-<n>}, each instance holding
 * {@code ceil(n / live instances)} of them (a shard nobody takes for a whole check is taken beyond that). The holder of a shard's lease connects it
 * ({@link DiscordShards#open}); losing the lease disconnects it; a clean stop disconnects every
 * shard held here and releases their leases at once. This class names the leases and says what
 * happens in Discord's words (its own log lines).
 *
 * <p>Concurrency: the election's lock guards what it holds and the opening and closing of shards
 * (then {@link DiscordShards}' own lock).
 */
final class ShardElection {

    private static final Logger log = LoggerFactory.getLogger(ShardElection.class);

    private final IngressElection election;
    private final int total;

    ShardElection(DiscordChannel.ShardFleet fleet, String token, DiscordShards shards) {
        this.total = shards.total();
        this.election = new IngressElection(fleet.leases(), keysFor(token, total), fleet.timer(), fleet.executor(),
                fleet.checkEvery(), new IngressElection.Connections() {
                    @Override
                    public void open(int index) {
                        shards.open(index);
                    }

                    @Override
                    public void close(int index) {
                        shards.close(index);
                    }
                }, fleet.standing(), new Words());
    }

    /** One lease key per shard; the token itself never reaches Redis (D173). */
    static List<SessionKey> keysFor(String token, int total) {
        String bot = IngressElection.tokenHash(token);
        List<SessionKey> keys = new ArrayList<>(total);
        for (int shard = 0; shard < total; shard++) {
            keys.add(SessionKey.of("ingress:discord:" + bot + ":shard-" + shard + "-of-" + total));
        }
        return keys;
    }

    List<SessionKey> keys() {
        return election.keys();
    }

    void start() {
        election.start();
    }

    List<Integer> heldHere() {
        return election.heldHere();
    }

    /** Disconnects every shard held here and hands their leases over at once; idempotent. */
    void stop() {
        election.stop();
    }

    /** The election's events in Discord's log lines (docs/behaviour.md §17, "Ingress"). */
    private final class Words implements IngressElection.Events {
        @Override
        public void taken(int index, Lease lease) {
            log.info("discord: this instance connects shard [{}, {}] for the fleet (fencing token {})", index, total,
                    lease.token());
        }

        @Override
        public void gaveUp(int index, boolean stopping) {
            log.info("discord: gave shard [{}, {}] up ({}); another instance connects it at its next check", index,
                    total, stopping ? "stopping" : "above this instance's share");
        }

        @Override
        public void lost(int index, Lease lease) {
            log.warn("discord: lost the lease of shard [{}, {}] (fencing token {}); disconnected it here, another"
                    + " instance connects it", index, total, lease.token());
        }

        @Override
        public void couldNotAsk(RuntimeException e, Duration checkEvery) {
            log.warn("discord: could not ask the fleet who connects which shard ({}); asked again in {} ms",
                    e.getMessage(), checkEvery.toMillis());
        }

        @Override
        public void couldNotOpen(int index, Exception e) {
            log.warn("discord: could not connect shard [{}, {}] ({}); its lease is given back and taken again later",
                    index, total, e.getMessage());
        }

        @Override
        public void couldNotRelease(int index, RuntimeException e) {
            log.warn("discord: could not release the lease of shard [{}, {}] ({}); it expires by itself", index, total,
                    e.getMessage());
        }
    }
}
