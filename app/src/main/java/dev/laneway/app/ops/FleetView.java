package dev.laneway.app.ops;

import dev.laneway.core.engine.Gateway;
import dev.laneway.store.redis.FleetPermits;
import dev.laneway.store.redis.FleetReport;
import dev.laneway.store.redis.RedisFleetMember;
import dev.laneway.store.redis.RedisFleetReader;
import dev.laneway.store.redis.RedisStore;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code /status}'s {@code fleet} section (docs/behaviour.md §17): this instance, the fleet's live
 * instances (each with its heartbeat's age, the session leases it reported at its last heartbeat and
 * the {@code main} permits it holds), who takes each platform's updates, the session leases and
 * {@code main} permits held here, and the fleet's {@code main} permits in use. Read with
 * {@link RedisFleetReader} (two round trips, nothing written); when Redis does not answer,
 * {@code instances}, {@code members} and {@code ingress} are empty and {@code mainPermitsInUse} null,
 * and the rest still answers.
 *
 * @param instance         this instance's id
 * @param instances        the fleet's live instances (heartbeat not expired), in id order
 * @param members          the same instances with their heartbeat's age, leases and permits
 * @param ingress          who takes each enabled platform's updates
 * @param leasesHere       session leases this instance holds
 * @param mainPermitsHere  fleet {@code main} permits this instance holds (its allowance)
 * @param mainPermitsInUse fleet {@code main} permits held across the fleet, or null when Redis did not answer
 * @param mainCap          the fleet's {@code main} cap
 * @param discordShardsHere the Discord shards this instance connects (docs/behaviour.md §17, "Ingress"),
 *                          or null when Discord is off
 */
public record FleetView(String instance, List<String> instances, List<Member> members,
                        List<FleetIngress.Holders> ingress, int leasesHere, int mainPermitsHere, Long mainPermitsInUse,
                        int mainCap, List<Integer> discordShardsHere) {

    /** One live instance, as its heartbeat left it in Redis. */
    public record Member(String id, String host, long heartbeatAgeMs, int leases, int mainPermits) {
    }

    public FleetView {
        instances = List.copyOf(instances);
        members = List.copyOf(members);
        ingress = List.copyOf(ingress);
        discordShardsHere = discordShardsHere == null ? null : List.copyOf(discordShardsHere);
    }

    /** The section now, for this instance's gateway in its fleet; {@code discordShards} null when Discord is off. */
    public static FleetView of(RedisFleetMember member, RedisStore store, Gateway gateway, FleetPermits main,
                               List<FleetIngress.Plan> plans, Supplier<List<Integer>> discordShards) {
        List<String> instances = List.of();
        List<Member> members = List.of();
        List<FleetIngress.Holders> ingress = List.of();
        Long inUse = null;
        try {
            FleetReport report = RedisFleetReader.read(store, FleetIngress.leases(plans));
            instances = report.instances().stream().map(FleetReport.Member::id).toList();
            members = report.instances().stream().map(each -> new Member(each.id(), each.host(),
                    each.heartbeatAgeMillis(), each.leases(), each.mainPermits())).toList();
            ingress = FleetIngress.holders(plans, report);
            inUse = report.mainPermitsInUse();
        } catch (RuntimeException e) {
            // Redis did not answer: the section says what this instance knows by itself
        }
        return new FleetView(member.id(), instances, members, ingress, Math.max(0, gateway.fleetLeases()),
                Math.max(0, gateway.fleetMainPermits()), inUse, main.cap(),
                discordShards == null ? null : discordShards.get());
    }
}
