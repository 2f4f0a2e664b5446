package dev.laneway.agents.testing;

import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.SteerMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** Records what a run reports; {@code lock} guards the lists. Waits are bounded (10 s). */
public final class RecordingEvents implements RunEvents {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<String> deltas = new ArrayList<>();
    private final List<String> replies = new ArrayList<>();
    private final List<String> toolSteps = new ArrayList<>();
    private final List<String> retries = new ArrayList<>();
    // per reply, the texts of the steers it answered ("" when none), in reply order
    private final List<String> answeredSteers = new ArrayList<>();

    @Override
    public void delta(String text) {
        add(deltas, text);
    }

    @Override
    public void reply(String text) {
        reply(text, List.of());
    }

    @Override
    public void reply(String text, List<SteerMessage> steers) {
        lock.lock();
        try {
            answeredSteers.add(String.join("|", steers.stream().map(SteerMessage::text).toList()));
        } finally {
            lock.unlock();
        }
        add(replies, text);
    }

    @Override
    public void toolStep(String tool, String status) {
        add(toolSteps, tool + ":" + status);
    }

    @Override
    public void retrying(String reason) {
        add(retries, reason);
    }

    private void add(List<String> list, String text) {
        lock.lock();
        try {
            list.add(text);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public List<String> deltas() {
        return snapshot(deltas);
    }

    public List<String> replies() {
        return snapshot(replies);
    }

    /** For each reply, in order, the texts of the steers it answered joined with {@code |} ("" for none). */
    public List<String> answeredSteers() {
        return snapshot(answeredSteers);
    }

    public List<String> toolSteps() {
        return snapshot(toolSteps);
    }

    public List<String> retries() {
        return snapshot(retries);
    }

    /** Waits until at least {@code count} deltas arrived. */
    public void awaitDeltas(int count) {
        await(deltas, count);
    }

    /** Waits until at least {@code count} tool steps were reported. */
    public void awaitToolSteps(int count) {
        await(toolSteps, count);
    }

    private List<String> snapshot(List<String> list) {
        lock.lock();
        try {
            return List.copyOf(list);
        } finally {
            lock.unlock();
        }
    }

    private void await(List<String> list, int count) {
        long nanos = TimeUnit.SECONDS.toNanos(10);
        lock.lock();
        try {
            while (list.size() < count) {
                if (nanos <= 0) {
                    throw new AssertionError("expected " + count + " events, got " + list);
                }
                nanos = changed.awaitNanos(nanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            lock.unlock();
        }
    }
}
