package dev.laneway.core.lane;

/** A lane's state at one instant: its cap, runs holding a slot, runs waiting for one. */
public record LaneSnapshot(String name, int cap, int active, int queued) {
}
