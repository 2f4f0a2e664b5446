package dev.laneway.core.lane;

/**
 * A slot in a lane. Closing it gives the slot back (to the next waiter, if any); closing twice is
 * harmless, so it can sit in a {@code finally} on every exit path.
 */
public interface LanePermit extends AutoCloseable {

    /** The lane this permit belongs to. */
    String lane();

    @Override
    void close();
}
