package dev.laneway.app.ops;

import dev.laneway.core.engine.Gateway;
import dev.laneway.store.redis.FleetPermits;
import dev.laneway.store.redis.RedisFleetMember;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code /status}'s {@code fleet} section (docs/behaviour.md §17): this instance, the fleet's live
 * instances, the session leases and {@code main} permits held here, and the fleet's {@code main}
 * permits in use. Asks Redis twice; when it cannot, {@code instances} is empty and
 * {@code mainPermitsInUse} null, and the rest still answers.
 *
 * @param instance         this instance's id
 * @param instances        the fleet's live instances (heartbeat not expired), in id order
 * @param leasesHere       session leases this instance holds
 * @param mainPermitsHere  fleet {@code main} permits this instance holds (its allowance)
 * @param mainPermitsInUse fleet {@code main} permits held across the fleet, or null when Redis did not answer
 * @param mainCap          the fleet's {@code main} cap
 * @param discordShardsHere the Discord shards this instance connects (docs/behaviour.md §17, "Ingress"),
 *                          or null when Discord is off
 */
public record FleetView(String instance, List<String> instances, int leasesHere, int mainPermitsHere,
                        Long mainPermitsInUse, int mainCap, List<Integer> discordShardsHere) {

    public FleetView {
        instances = List.copyOf(instances);
        discordShardsHere = discordShardsHere == null ? null : List.copyOf(discordShardsHere);
    }

    /** The section now, for this instance's gateway in its fleet; {@code discordShards} null when Discord is off. */
    public static FleetView of(RedisFleetMember member, Gateway gateway, FleetPermits main,
                               Supplier<List<Integer>> discordShards) {
        List<String> instances;
        Long inUse;
        try {
            instances = member.instances();
            inUse = main.inUse();
        } catch (RuntimeException e) {
            instances = List.of();
            inUse = null;
        }
        return new FleetView(member.id(), instances, Math.max(0, gateway.fleetLeases()),
                Math.max(0, gateway.fleetMainPermits()), inUse, main.cap(),
                discordShards == null ? null : discordShards.get());
    }
}
