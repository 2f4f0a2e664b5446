package dev.laneway.store.redis;

import java.util.List;

/**
 * A fleet as Redis holds it now, read without writing anything (docs/behaviour.md §17, "Seeing the
 * fleet"): for {@code laneway fleet} and {@code /status}'s fleet section.
 *
 * @param fleet            the fleet's name
 * @param instances        the live instances (their heartbeat key has not expired), in id order
 * @param mainPermitsInUse unexpired {@code main} permits across the fleet
 * @param ingress          the ingress leases asked for, in the order asked (holder null when nobody holds one)
 * @param pendingMessages  messages journaled and not ended, across the fleet
 * @param unleased         sessions with pending messages whose lease nobody holds, oldest first (among
 *                         the {@link RedisFleetReader#LOOK_AT} sessions with the oldest pending messages)
 */
public record FleetReport(String fleet, List<Member> instances, long mainPermitsInUse, List<IngressLease> ingress,
                          long pendingMessages, List<String> unleased) {

    public FleetReport {
        instances = List.copyOf(instances);
        ingress = List.copyOf(ingress);
        unleased = List.copyOf(unleased);
    }

    /**
     * One live instance.
     *
     * @param id                 its id ({@code <host>-<pid>-<6 hex>})
     * @param host               the host it said it runs on
     * @param startedAt          when it joined (epoch ms, its own clock)
     * @param heartbeatAgeMillis how long ago its last heartbeat reached Redis (Redis's clock)
     * @param leases             session leases it held at its last heartbeat (the poller's lease not
     *                           counted), or -1 when it does not say (an older Laneway)
     * @param mainPermits        unexpired {@code main} permits it holds now
     */
    public record Member(String id, String host, long startedAt, long heartbeatAgeMillis, int leases,
                         int mainPermits) {
    }

    /**
     * An ingress lease (the Telegram poller's, docs/behaviour.md §17, "Ingress").
     *
     * @param name   the lease's name, {@code ingress:telegram:<16 hex>}
     * @param holder the instance that holds it, or null
     * @param token  its fencing token, or 0 when nobody holds it
     */
    public record IngressLease(String name, String holder, long token) {
    }

    /** The live instance called {@code id}, if it is one. */
    public java.util.Optional<Member> member(String id) {
        return instances.stream().filter(member -> member.id().equals(id)).findFirst();
    }
}
