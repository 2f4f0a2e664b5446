package dev.laneway.store;

import java.nio.file.Path;

/**
 * Run by {@link KillNineTest} in a JVM of its own: appends forever, printing each sequence number
 * once its append is durable (the future completed), until the test kills it with SIGKILL.
 */
public final class CrashChild {

    private CrashChild() {
    }

    public static void main(String[] args) {
        SqliteStore store = SqliteStore.open(Path.of(args[0])); // defaults: synchronous=FULL
        for (long seq = 1; ; seq++) {
            store.append(Fixtures.entry(seq)).join();
            if (seq % 3 == 0) {
                store.settled(seq - 1, true);
            }
            System.out.println(seq);
            System.out.flush();
        }
    }
}
