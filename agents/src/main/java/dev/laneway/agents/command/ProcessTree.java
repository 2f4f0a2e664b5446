package dev.laneway.agents.command;

import java.util.List;

/** Kills a process and everything it started. */
final class ProcessTree {

    private static final int SWEEPS = 3;

    private ProcessTree() {
    }

    /**
     * Kills the descendants while the root is still alive (so none escapes by being re-parented),
     * sweeping again for children spawned meanwhile, then the root. Only sends signals.
     */
    static void kill(Process root) {
        for (int sweep = 0; sweep < SWEEPS; sweep++) {
            List<ProcessHandle> descendants = root.descendants().toList();
            if (descendants.isEmpty()) {
                break;
            }
            descendants.forEach(ProcessHandle::destroyForcibly);
        }
        root.destroyForcibly();
    }
}
