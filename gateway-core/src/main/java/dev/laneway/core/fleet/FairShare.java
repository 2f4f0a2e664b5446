package dev.laneway.core.fleet;

/**
 * This instance's fair share of one fleet-wide cap (docs/behaviour.md §17, docs/decisions.md D228):
 * the cap split among the instances that want permits of it, each getting at most its demand and
 * the spare going to the others ({@code share}), and whether another instance holds fewer permits
 * than its own share and wants more ({@code othersShort}). Only then is this instance held to its
 * share; otherwise it may use whatever the fleet has free, so a lone instance uses the whole cap.
 */
public record FairShare(int share, boolean othersShort) {

    /** No other instance wants permits of the cap: no ceiling. */
    public static final FairShare WHOLE = new FairShare(Integer.MAX_VALUE, false);

    public FairShare {
        if (share < 0) {
            throw new IllegalArgumentException("a fair share must be at least 0, got " + share);
        }
    }

    /** The most permits this instance should hold now: its share while another is short, else unlimited. */
    public int ceiling() {
        return othersShort ? share : Integer.MAX_VALUE;
    }
}
