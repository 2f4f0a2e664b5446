package dev.laneway.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures how long after a reply reached the fake Bot API its message's "answered" record reached
 * Redis (docs/decisions.md L41): a {@code MONITOR} connection on the fleet's throwaway Redis sees
 * each append (its sequence number and message text) and each answered settle (its sequence number,
 * the time the instance queued it, the time Redis ran it). For each message answered once, the
 * window splits into reply → settle queued (the instance's HTTP response, SDK, outbox) and queued →
 * Redis (the store's writer). A diagnostic of {@link FleetChaosIT}, printed, never asserted on: the
 * figures depend on how busy the machine is.
 *
 * <p>Concurrency: one reader thread fills the two concurrent maps; {@link #report} reads them after
 * the traffic is done.
 */
final class RecordWindows implements AutoCloseable {

    private static final Pattern LINE = Pattern.compile("^\\+?(\\d+)\\.(\\d+) \\[[^]]*] (.*)$");
    private static final Pattern ARG = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern MESSAGE = Pattern.compile("(c\\d+-m\\d+)");

    /** An answered settle as Redis ran it: when the instance queued it, when Redis ran it (epoch µs). */
    record Settle(long queuedMillis, long ranMicros) { }

    private final Socket socket;
    private final Map<String, String> messageBySeq = new ConcurrentHashMap<>();
    private final Map<String, Settle> settleBySeq = new ConcurrentHashMap<>();
    private final Thread reader;

    RecordWindows(String redisUrl) throws IOException {
        URI uri = URI.create(redisUrl);
        socket = new Socket(uri.getHost(), uri.getPort());
        OutputStream out = socket.getOutputStream();
        out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        reader = Thread.ofPlatform().daemon().name("record-windows").start(() -> {
            try {
                for (String line; (line = in.readLine()) != null; ) {
                    read(line);
                }
            } catch (IOException e) {
                // closed
            }
        });
    }

    private void read(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return;
        }
        List<String> args = new ArrayList<>();
        Matcher arg = ARG.matcher(m.group(3));
        while (arg.find()) {
            args.add(arg.group(1));
        }
        if (args.size() < 3 || !args.getFirst().equalsIgnoreCase("evalsha") && !args.getFirst().equalsIgnoreCase("eval")) {
            return;
        }
        int keys;
        try {
            keys = Integer.parseInt(args.get(2));
        } catch (NumberFormatException e) {
            return;
        }
        List<String> argv = args.subList(Math.min(args.size(), 3 + keys), args.size());
        if (keys == 6 && argv.size() >= 2 && args.get(3).endsWith(":journal")) {
            Matcher text = MESSAGE.matcher(argv.get(1));
            if (text.find()) {
                messageBySeq.put(argv.getFirst(), text.group(1));
            }
        } else if (keys >= 4 && args.get(6).endsWith(":answered") && argv.size() >= 3 && argv.get(1).equals("1")) {
            long micros = Long.parseLong(m.group(1)) * 1_000_000 + Long.parseLong(m.group(2));
            settleBySeq.putIfAbsent(argv.getFirst(), new Settle(Long.parseLong(argv.get(2)), micros));
        }
    }

    /**
     * Prints the windows of the messages answered once whose reply came from {@code sentAt}, and the
     * five widest with when their reply arrived relative to {@code mark} (the kill).
     */
    void report(String what, Map<String, Instant> sentAt, Instant mark) {
        List<Long> total = new ArrayList<>();
        List<String> widest = new ArrayList<>();
        List<Long> toQueued = new ArrayList<>();
        List<Long> toRedis = new ArrayList<>();
        settleBySeq.forEach((seq, settle) -> {
            String message = messageBySeq.get(seq);
            Instant sent = message == null ? null : sentAt.get(message);
            if (sent != null) {
                long sentMicros = sent.getEpochSecond() * 1_000_000 + sent.getNano() / 1_000;
                total.add(settle.ranMicros() - sentMicros);
                widest.add("%08d %s: %.1f ms, reply %+d ms from the kill".formatted(settle.ranMicros() - sentMicros,
                        message, (settle.ranMicros() - sentMicros) / 1000.0,
                        java.time.Duration.between(mark, sent).toMillis()));
                toQueued.add(settle.queuedMillis() * 1_000 - sentMicros);
                toRedis.add(settle.ranMicros() - settle.queuedMillis() * 1_000);
            }
        });
        System.out.printf("%s: reply -> answered record in Redis over %d messages: %s; reply -> settle queued: %s;"
                + " queued -> Redis: %s%n", what, total.size(), summary(total), summary(toQueued), summary(toRedis));
        widest.stream().sorted(java.util.Comparator.reverseOrder()).limit(5)
                .forEach(line -> System.out.println("  widest: " + line.substring(9)));
    }

    private static String summary(List<Long> micros) {
        if (micros.isEmpty()) {
            return "none";
        }
        List<Long> sorted = micros.stream().sorted().toList();
        return "median %.1f ms, p90 %.1f ms, max %.1f ms".formatted(at(sorted, 0.5), at(sorted, 0.9),
                sorted.getLast() / 1000.0);
    }

    private static double at(List<Long> sorted, double q) {
        return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size()))) / 1000.0;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
