package dev.laneway.core.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Splits a fleet-wide cap among the instances that want its permits (docs/behaviour.md §17,
 * docs/decisions.md D228): water-filling, so an instance wanting less than an equal part gets what
 * it wants and the spare is split among the others; what an equal split leaves over (cap mod n)
 * goes one each to the instances first by id, so the shares are the same whoever computes them and
 * do not move while the demands hold. Stateless; a pure function of the published demands.
 */
public final class FairShares {

    private FairShares() {
    }

    /**
     * One instance's published demand for the cap, the permits of it it holds now, and whether it
     * was refused a permit lately (it waits for one, not only for its own next ask).
     */
    public record Instance(String id, int demand, int held, boolean refused) {
        public Instance {
            Objects.requireNonNull(id, "id");
            if (demand < 0 || held < 0) {
                throw new IllegalArgumentException("instance " + id + ": demand and held must be at least 0, got "
                        + demand + " and " + held);
            }
        }
    }

    /** Each wanting instance's share of {@code cap} (instances with no demand get none and are left out). */
    public static Map<String, Integer> split(int cap, List<Instance> instances) {
        if (cap < 1) {
            throw new IllegalArgumentException("a fleet cap must be at least 1, got " + cap);
        }
        List<Instance> wanting = new ArrayList<>();
        for (Instance instance : instances) {
            if (instance.demand() > 0) {
                wanting.add(instance);
            }
        }
        wanting.sort(Comparator.comparingInt(Instance::demand).thenComparing(Instance::id));
        Map<String, Integer> shares = new HashMap<>();
        int remaining = cap;
        for (int i = 0; i < wanting.size(); i++) {
            int left = wanting.size() - i;
            int level = remaining / left;
            if (wanting.get(i).demand() <= level) {
                shares.put(wanting.get(i).id(), wanting.get(i).demand());
                remaining -= wanting.get(i).demand();
                continue;
            }
            List<Instance> rest = new ArrayList<>(wanting.subList(i, wanting.size()));
            rest.sort(Comparator.comparing(Instance::id));
            int over = remaining - level * left;
            for (Instance instance : rest) {
                shares.put(instance.id(), level + (over-- > 0 ? 1 : 0));
            }
            break;
        }
        return shares;
    }

    /**
     * {@code me}'s share of {@code cap}, and whether another instance is short: holds at least one
     * permit fewer than its share, wants more than it holds and was refused one lately (so a demand
     * published a moment before its permits were taken, or before its runs ended, holds nobody
     * back). A permit is moved only from an
     * instance above its share to one at least one below (one permit of hysteresis), so the total
     * distance from the shares falls with each move and never flaps while the demands hold.
     */
    public static FairShare of(int cap, String me, List<Instance> instances) {
        Map<String, Integer> shares = split(cap, instances);
        boolean othersShort = false;
        for (Instance other : instances) {
            if (!other.id().equals(me) && other.refused() && other.demand() > other.held()
                    && other.held() < shares.getOrDefault(other.id(), 0)) {
                othersShort = true;
                break;
            }
        }
        return new FairShare(shares.getOrDefault(me, 0), othersShort);
    }
}
