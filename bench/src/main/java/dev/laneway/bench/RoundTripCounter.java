package dev.laneway.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns Redis {@code MONITOR} lines into round trips (docs/architecture.md §10): a command outside a
 * transaction is one round trip, labelled by its name ({@code EVALSHA} by the script's name); a
 * {@code MULTI ... EXEC} of one connection is one round trip (the client pipelines the transaction),
 * its queued commands counted apart; commands a script runs ({@code [0 lua]}) are not round trips;
 * commands of excluded connections (the measurement's own) are not counted.
 *
 * <p>Not thread-safe: {@link RedisMonitor} calls it under its own monitor.
 */
final class RoundTripCounter {

    /** The counts so far: round trips by label, commands inside transactions by label, script-internal calls. */
    record Counts(Map<String, Long> roundTrips, Map<String, Long> inTransactions, long scriptCalls) {

        long total() {
            return roundTrips.values().stream().mapToLong(Long::longValue).sum();
        }

        long get(String label) {
            return roundTrips.getOrDefault(label, 0L);
        }

        /** This minus {@code earlier}: what happened in between. */
        Counts minus(Counts earlier) {
            return new Counts(subtract(roundTrips, earlier.roundTrips), subtract(inTransactions, earlier.inTransactions),
                    scriptCalls - earlier.scriptCalls);
        }

        private static Map<String, Long> subtract(Map<String, Long> a, Map<String, Long> b) {
            Map<String, Long> out = new TreeMap<>();
            a.forEach((k, v) -> {
                long d = v - b.getOrDefault(k, 0L);
                if (d != 0) {
                    out.put(k, d);
                }
            });
            return out;
        }
    }

    /** The label of a transaction: one round trip however many ops it carries. */
    static final String TRANSACTION = "MULTI…EXEC (writer's group commit)";

    private final Map<String, String> scripts;
    private final Map<String, Long> roundTrips = new TreeMap<>();
    private final Map<String, Long> inTransactions = new TreeMap<>();
    private final Set<String> inMulti = new HashSet<>(); // client addresses between MULTI and EXEC
    private final Set<String> excluded = new HashSet<>();
    private long scriptCalls;

    RoundTripCounter(Map<String, String> scriptNamesBySha) {
        this.scripts = Map.copyOf(scriptNamesBySha);
    }

    /** Commands from this client address ({@code host:port}) are not counted. */
    void exclude(String client) {
        excluded.add(client);
    }

    /**
     * One MONITOR line without its leading {@code +}: {@code <time> [<db> <client>] "cmd" "arg" ...}.
     * Returns the command's words (at most two) for the caller's own markers; empty for a line it
     * cannot read.
     */
    List<String> take(String line) {
        int open = line.indexOf('[');
        int close = line.indexOf(']', open + 1);
        if (open < 0 || close < 0) {
            return List.of();
        }
        String source = line.substring(open + 1, close);
        String client = source.substring(source.indexOf(' ') + 1);
        List<String> words = quoted(line.substring(close + 1), 2);
        if (words.isEmpty() || excluded.contains(client)) {
            return words;
        }
        if (client.equals("lua")) {
            scriptCalls++;
            return words;
        }
        String command = words.get(0).toLowerCase(Locale.ROOT);
        switch (command) {
            case "multi" -> inMulti.add(client);
            case "exec", "discard" -> {
                inMulti.remove(client);
                roundTrips.merge(TRANSACTION, 1L, Long::sum);
            }
            default -> (inMulti.contains(client) ? inTransactions : roundTrips).merge(label(command, words), 1L, Long::sum);
        }
        return words;
    }

    Counts counts() {
        return new Counts(new TreeMap<>(roundTrips), new TreeMap<>(inTransactions), scriptCalls);
    }

    private String label(String command, List<String> words) {
        if ((command.equals("evalsha") || command.equals("evalsha_ro")) && words.size() > 1) {
            String sha = words.get(1);
            return "script " + scripts.getOrDefault(sha, sha.substring(0, Math.min(8, sha.length())));
        }
        if (command.equals("eval")) {
            return "EVAL (script not cached)";
        }
        return command.toUpperCase(Locale.ROOT);
    }

    /** The first {@code max} double-quoted words of a MONITOR line (a backslash escapes the next character). */
    static List<String> quoted(String rest, int max) {
        List<String> words = new ArrayList<>(max);
        int i = 0;
        while (words.size() < max) {
            int start = rest.indexOf('"', i);
            if (start < 0) {
                break;
            }
            StringBuilder word = new StringBuilder();
            int j = start + 1;
            for (; j < rest.length(); j++) {
                char c = rest.charAt(j);
                if (c == '\\' && j + 1 < rest.length()) {
                    word.append(rest.charAt(++j));
                } else if (c == '"') {
                    break;
                } else {
                    word.append(c);
                }
            }
            words.add(word.toString());
            i = j + 1;
        }
        return words;
    }
}
