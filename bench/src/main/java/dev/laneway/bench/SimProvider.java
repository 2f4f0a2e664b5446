package dev.laneway.bench;

/**
 * A model provider in the provider simulation ({@link ProviderSimulation}): it takes at most
 * {@code capacity} calls at once and answers the one beyond with 429 and a {@code Retry-After}; during
 * an outage it answers every call with 500. Both answers come after {@code errorLatencyMillis}. It
 * keeps the busy time (calls in flight integrated over time) the utilisation is read from.
 * Single-threaded, like the simulation.
 */
final class SimProvider {

    /** How a call ends. */
    enum Answer { OK, TOO_MANY, SERVER_ERROR }

    private final VirtualTime time;
    private final int capacity;
    private final long errorLatencyMillis;
    private final long outageFrom;
    private final long outageTo;
    private int inFlight;
    private long busyMillis;      // ∫ inFlight dt
    private long changedAt;
    private long calls;
    private long tooMany;
    private long serverErrors;

    SimProvider(VirtualTime time, int capacity, long errorLatencyMillis, long outageFrom, long outageTo) {
        this.time = time;
        this.capacity = capacity;
        this.errorLatencyMillis = errorLatencyMillis;
        this.outageFrom = outageFrom;
        this.outageTo = outageTo;
    }

    /** A call that would take {@code millis}: {@code done} gets the answer when it comes. */
    void call(long millis, java.util.function.Consumer<Answer> done) {
        calls++;
        long now = time.now();
        if (now >= outageFrom && now < outageTo) {
            serverErrors++;
            time.at(now + errorLatencyMillis, () -> done.accept(Answer.SERVER_ERROR));
            return;
        }
        if (inFlight >= capacity) {
            tooMany++;
            time.at(now + errorLatencyMillis, () -> done.accept(Answer.TOO_MANY));
            return;
        }
        move(+1);
        time.at(now + millis, () -> {
            move(-1);
            done.accept(Answer.OK);
        });
    }

    private void move(int delta) {
        long now = time.now();
        busyMillis += (long) inFlight * (now - changedAt);
        changedAt = now;
        inFlight += delta;
    }

    /** Busy call-milliseconds so far (calls in flight × time). */
    long busyMillis() {
        return busyMillis + (long) inFlight * (time.now() - changedAt);
    }

    int capacity() {
        return capacity;
    }

    long calls() {
        return calls;
    }

    long tooMany() {
        return tooMany;
    }

    long serverErrors() {
        return serverErrors;
    }
}
