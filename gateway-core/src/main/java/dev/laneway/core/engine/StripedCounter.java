package dev.laneway.core.engine;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A count that every carrier moves up and down, per message, and that is read rarely (a gauge,
 * {@code /status}, shutdown's "is anything settling"): its cells are spread over separate cache
 * lines, and the caller names the cell by a hint of its own (a session's hash, a message's
 * sequence number), so two carriers working on different messages rarely write the same line
 * (docs/decisions.md D240). It replaces {@code LongAdder}, which picks its cell by the thread's
 * probe: every virtual thread starts with probe 0, so every run's first add went to the same cell,
 * and one that lost the race there paid for seeding the thread's random probe as well.
 *
 * <p>Concurrency: each cell is changed by an atomic add (never retried); {@link #sum()} reads the
 * cells one by one (volatile), so it is exact once the adds it must see happened before it, as
 * {@code LongAdder.sum} is. A caller whose count must not look negative in between (an add and the
 * matching subtract on different cells, read half-way) pairs them on one hint, or clamps the sum.
 */
final class StripedCounter {

    // longs per cell: 128 bytes, so no two cells share a cache line or an adjacent-line prefetch
    // pair; cell i sits at (i + 1) * STRIDE, away from the array's header (its length, read by every
    // bounds check) and from whatever follows the array
    private static final int STRIDE = 16;
    private static final int MAX_CELLS = 64;

    private final AtomicLongArray cells;
    private final int mask;
    private final int shift; // 32 - log2(cells): a hint's mixed top bits name its cell

    StripedCounter() {
        this(cellsFor(Runtime.getRuntime().availableProcessors()));
    }

    /** @param cells how many cells, rounded up to a power of two */
    StripedCounter(int cells) {
        int n = Integer.highestOneBit(Math.max(1, Math.min(MAX_CELLS, cells)) * 2 - 1);
        this.mask = n - 1;
        this.shift = 32 - Integer.numberOfTrailingZeros(n);
        this.cells = new AtomicLongArray((n + 2) * STRIDE);
    }

    /** Twice the processors (a carrier per processor), at most 64. */
    static int cellsFor(int processors) {
        return Math.min(MAX_CELLS, Math.max(2, 2 * processors));
    }

    void add(int hint, long delta) {
        cells.getAndAdd(slot(hint), delta);
    }

    void increment(int hint) {
        add(hint, 1);
    }

    void decrement(int hint) {
        add(hint, -1);
    }

    long sum() {
        long sum = 0;
        for (int i = 0; i <= mask; i++) {
            sum += cells.get((i + 1) * STRIDE);
        }
        return sum;
    }

    /** How many cells (for tests). */
    int cellCount() {
        return mask + 1;
    }

    /** What one cell holds (for tests). */
    long cellValue(int cell) {
        return cells.get((cell + 1) * STRIDE);
    }

    /** The cell {@code hint} names: its bits mixed (Fibonacci hashing), so near hints land apart. */
    int cellOf(int hint) {
        return ((hint * 0x9E3779B9) >>> shift) & mask; // one cell: a shift by 32 is none, the mask is 0
    }

    private int slot(int hint) {
        return (cellOf(hint) + 1) * STRIDE;
    }
}
