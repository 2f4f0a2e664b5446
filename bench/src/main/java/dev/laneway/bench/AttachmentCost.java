package dev.laneway.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.laneway.agents.files.ChannelFileLoader;
import dev.laneway.agents.files.FileReading;
import dev.laneway.agents.files.Transcriber;
import dev.laneway.agents.openai.OpenAiAgent;
import dev.laneway.core.Attachment;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.settings.AttachmentSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.FileLocation;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.time.SystemScheduler;
import dev.laneway.store.SqliteStore;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What attachments cost (docs/behaviour.md §15, README "Performance"): the latency a file adds to one
 * {@code openai} run (fetch through {@code ChannelFileLoader} + conversion: data URL, inlining,
 * transcription), against the same run for a text-only message in the same process; and the heap and
 * SQLite journal bytes one queued attachment adds to its message. Everything talks to one server on
 * 127.0.0.1 in this process: the platform's files, a Chat Completions endpoint that answers at once, and
 * an {@code /audio/transcriptions} endpoint that answers at once, so the figures are Laneway's own cost
 * (HTTP on loopback included), not a model's. The fakes are JDK {@code HttpServer}s with
 * {@code TCP_NODELAY} on ({@code sun.net.httpserver.nodelay}): without it a request body of a few to a
 * few dozen KB waits out the loopback's delayed ACK (about 40 ms), a property of the fake, not of
 * Laneway or of real model servers.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.laneway.bench.AttachmentCost [--runs N]}
 */
public final class AttachmentCost {

    /** One latency row: per-run times in ms, and the added time against the text-only baseline. */
    record Latency(String kind, double medianMs, double p90Ms, double addedMedianMs, double ratio) {
    }

    private static final byte[] PNG_HEADER = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    private static final String ANSWER = "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":"
            + "[{\"index\":0,\"finish_reason\":\"stop\",\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}}]}";

    private final Map<String, byte[]> files;
    private final HttpServer server;
    private final SystemScheduler scheduler = new SystemScheduler();

    private AttachmentCost() throws IOException {
        Random random = new Random(42);
        byte[] image = new byte[200 * 1024];
        random.nextBytes(image);
        System.arraycopy(PNG_HEADER, 0, image, 0, PNG_HEADER.length);
        byte[] voice = new byte[32 * 1024];
        random.nextBytes(voice);
        System.arraycopy("OggS".getBytes(StandardCharsets.US_ASCII), 0, voice, 0, 4);
        byte[] pdf = new byte[200 * 1024];
        random.nextBytes(pdf);
        System.arraycopy("%PDF-1.7".getBytes(StandardCharsets.US_ASCII), 0, pdf, 0, 8);
        StringBuilder text = new StringBuilder();
        while (text.length() < 16 * 1024) {
            text.append("line ").append(text.length()).append(": some,csv,like,values\n");
        }
        files = Map.of("image.png", image, "voice.ogg", voice, "report.pdf", pdf,
                "notes.txt", text.toString().getBytes(StandardCharsets.UTF_8));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/files/", exchange -> answer(exchange, files.get(
                exchange.getRequestURI().getPath().substring("/files/".length())), "application/octet-stream"));
        server.createContext("/v1/chat/completions", exchange -> answer(exchange,
                ANSWER.getBytes(StandardCharsets.UTF_8), "application/json"));
        server.createContext("/v1/audio/transcriptions", exchange -> answer(exchange,
                "{\"text\":\"call me back when you can\"}".getBytes(StandardCharsets.UTF_8), "application/json"));
        server.start();
    }

    private static void answer(HttpExchange exchange, byte[] body, String type) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The platform: every attachment's reference is a path on the local server. */
    private final class Files implements ChannelAdapter {
        @Override public String name() { return "bench"; }
        @Override public ChannelCapabilities capabilities() {
            return new ChannelCapabilities(4000, false, Duration.ofSeconds(5), false);
        }
        @Override public void start(InboundSink sink) { }
        @Override public void send(Route route, String text) { }
        @Override public void stop() { }
        @Override public FileLocation locate(Attachment attachment) {
            return new FileLocation(URI.create(base() + "/files/" + attachment.ref()), Map.of(), false);
        }
    }

    private Attachment attachment(String name, String type) {
        return new Attachment("document", name, type, files.get(name).length, name);
    }

    private List<Latency> latencies(int runs) {
        AttachmentSettings settings = AttachmentSettings.DEFAULTS.withTranscription(
                new AttachmentSettings.Transcription(base() + "/v1", "whisper-1", "", Duration.ofSeconds(10)));
        ChannelFileLoader loader = ChannelFileLoader.create(Map.of("bench", new Files()), settings);
        FileReading reading = new FileReading(loader, settings, Transcriber.create(settings.transcription()));
        OpenAiSettings base = OpenAiSettings.defaults("bench", base() + "/v1", "m").withStream(false)
                .withMaxHistoryMessages(0);
        OpenAiAgent vision = new OpenAiAgent(base.withVision(true, false), new InMemorySessionStore(), scheduler,
                InstantSource.system()).readingFiles(reading);
        OpenAiAgent plain = new OpenAiAgent(base, new InMemorySessionStore(), scheduler, InstantSource.system())
                .readingFiles(reading);
        record Case(String kind, OpenAiAgent agent, Attachment attachment) {
        }
        List<Case> cases = List.of(
                new Case("text only (baseline)", plain, null),
                new Case("image 200 KB, vision (data URL)", vision, attachment("image.png", "image/png")),
                new Case("image 200 KB, no vision (placeholder + notice)", plain, attachment("image.png", "image/png")),
                new Case("text file 16 KB, inlined", plain, attachment("notes.txt", "text/plain")),
                new Case("voice note 32 KB, transcribed", plain, attachment("voice.ogg", "audio/ogg")),
                new Case("PDF 200 KB, named only (+ notice)", plain, attachment("report.pdf", "application/pdf")));
        // warm every path first, then measure the cases interleaved so drift hits all alike
        for (int i = 0; i < Math.max(50, runs / 4); i++) {
            for (Case c : cases) {
                run(c.agent(), c.attachment(), i);
            }
        }
        long[][] nanos = new long[cases.size()][runs];
        for (int i = 0; i < runs; i++) {
            for (int c = 0; c < cases.size(); c++) {
                nanos[c][i] = run(cases.get(c).agent(), cases.get(c).attachment(), i);
            }
        }
        double baseline = percentile(nanos[0], 0.5);
        List<Latency> rows = new ArrayList<>();
        for (int c = 0; c < cases.size(); c++) {
            double median = percentile(nanos[c], 0.5);
            rows.add(new Latency(cases.get(c).kind(), median / 1e6, percentile(nanos[c], 0.9) / 1e6,
                    (median - baseline) / 1e6, median / baseline));
        }
        return rows;
    }

    private static long run(OpenAiAgent agent, Attachment attachment, int i) {
        String prompt = "what is this?" + (attachment == null ? "" : "\n" + attachment.marker());
        List<MessageFiles> files = attachment == null ? List.of() : List.of(new MessageFiles("bench", List.of(attachment)));
        RunRequest request = new RunRequest("r" + i, SessionKey.of("bench:dm:" + (i % 7)), prompt,
                new Route("bench", "default", "c", null, null), false, "u", 1,
                new dev.laneway.core.scheduling.Claim(dev.laneway.core.scheduling.PriorityClass.NORMAL, "t", "s"), files);
        long start = System.nanoTime();
        RunOutcome outcome = agent.start(request, NO_EVENTS).completion().toCompletableFuture().join();
        long took = System.nanoTime() - start;
        if (!(outcome instanceof RunOutcome.Completed)) {
            throw new IllegalStateException("a measured run did not complete: " + outcome);
        }
        return took;
    }

    private static final RunEvents NO_EVENTS = new RunEvents() {
        @Override public void reply(String text) { }
        @Override public void reply(String text, List<SteerMessage> answeredSteers) { }
    };

    private static double percentile(long[] values, double p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
    }

    /** A Discord-like attachment: a name, a type, a size and a signed CDN URL of the usual length. */
    static Attachment typical(int i) {
        return new Attachment("image", "screenshot-" + i + ".png", "image/png", 183_422,
                "https://cdn.discordapp.com/attachments/1234567890123456789/" + (1234567890123456789L - i)
                        + "/screenshot-" + i + ".png?ex=6712f0a1&is=6711a021&hm=0f3c9b7e5d1a2c4b6e8f0a1b3c5d7e9f");
    }

    private static InboundMessage message(int i, boolean withFile) {
        return InboundMessage.builder("discord").chatId("c" + i).senderId("u" + i).senderName("User " + i)
                .text("what is this?").platformMessageId("m" + i).receivedAt(Instant.EPOCH)
                .attachments(withFile ? List.of(typical(i)) : List.of()).build();
    }

    /** Retained heap per queued message with one attachment minus one without, over {@code n} messages. */
    static double heapPerAttachment(int n) {
        List<InboundMessage> without = new ArrayList<>(n);
        long before = HeapFootprint.usedAfterGc();
        for (int i = 0; i < n; i++) {
            without.add(message(i, false));
        }
        long plain = HeapFootprint.usedAfterGc() - before;
        List<InboundMessage> with = new ArrayList<>(n);
        before = HeapFootprint.usedAfterGc();
        for (int i = 0; i < n; i++) {
            with.add(message(i, true));
        }
        long files = HeapFootprint.usedAfterGc() - before;
        java.lang.ref.Reference.reachabilityFence(without);
        java.lang.ref.Reference.reachabilityFence(with);
        return (double) (files - plain) / n;
    }

    /** SQLite journal bytes per pending entry with one attachment minus one without, over {@code n} entries. */
    static double diskPerAttachment(int n) throws IOException {
        return journalBytes(n, true) / (double) n - journalBytes(n, false) / (double) n;
    }

    private static long journalBytes(int n, boolean withFile) throws IOException {
        Path dir = DataDirs.create("laneway-attach-bench");
        try {
            try (SqliteStore store = SqliteStore.open(dir)) {
                for (int i = 1; i <= n; i++) {
                    InboundMessage message = message(i, withFile);
                    store.append(new JournalEntry(i, "discord:dm:u" + i, message, message.text(), QueueSettings.DEFAULTS,
                            false)).join();
                }
            }
            return DataDirs.size(dir);
        } finally {
            DataDirs.delete(dir);
        }
    }

    static String table(List<Latency> rows, double heap, double disk, int runs) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Attachment cost, %d runs per kind, fake servers on 127.0.0.1%n%n", runs));
        out.append("| what | median ms | p90 ms | added to a text-only run (median) | ratio |\n|---|---|---|---|---|\n");
        for (Latency row : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %+.2f ms | %.2f× |%n", row.kind(),
                    row.medianMs(), row.p90Ms(), row.addedMedianMs(), row.ratio()));
        }
        out.append(String.format(Locale.ROOT, "%n| per queued attachment | bytes |%n|---|---|%n"
                + "| heap (the `Attachment` in its message, Discord-like signed URL) | %.0f |%n"
                + "| SQLite journal (pending entry, reference included) | %.0f |%n", heap, disk));
        return out.toString();
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("sun.net.httpserver.nodelay", "true"); // before the first HttpServer: see the class comment
        int runs = 300;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runs")) {
                runs = Integer.parseInt(args[++i]);
            }
        }
        AttachmentCost cost = new AttachmentCost();
        try {
            List<Latency> rows = cost.latencies(runs);
            String table = table(rows, heapPerAttachment(100_000), diskPerAttachment(5_000), runs);
            PrintStream out = System.out;
            out.print(table);
        } finally {
            cost.server.stop(0);
            cost.scheduler.close();
        }
    }
}
