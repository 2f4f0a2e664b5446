package dev.laneway.agents.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.laneway.core.Attachment;
import dev.laneway.core.Route;
import dev.laneway.core.agent.LoadedFile;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.agent.settings.AttachmentSettings;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.FileLocation;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.testing.FakeFiles;
import dev.laneway.core.testing.LogCapture;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fetch of docs/behaviour.md §15.1 and its bad input (§15.5) against a file server on 127.0.0.1:
 * served, refused, cut off, too slow, too large for the file or the message, a declared type that lies,
 * a part that is no file; each failure names a reason, the rest of the message still loads, and the
 * log holds neither the URL nor the content.
 */
class ChannelFileLoaderTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13};
    private static final String SECRET = "sig=SECRET-SIGNATURE";

    private final FakeFiles files = new FakeFiles();
    private HttpServer server;
    private Files channel;

    /** A channel whose files are on the test server; {@code shareable} like Discord's. */
    private final class Files implements ChannelAdapter {
        @Override public String name() { return "test"; }
        @Override public ChannelCapabilities capabilities() { return new ChannelCapabilities(4000, false, Duration.ofSeconds(5), false); }
        @Override public void start(InboundSink sink) { }
        @Override public void send(Route route, String text) { }
        @Override public void stop() { }
        @Override
        public FileLocation locate(Attachment attachment) throws IOException {
            if (attachment.ref().equals("no-path")) {
                throw new IOException("Telegram gave no path for this file");
            }
            if (attachment.ref().equals("crash")) {
                throw new IllegalStateException("http://127.0.0.1/secret?" + SECRET);
            }
            return new FileLocation(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"
                    + attachment.ref() + "?" + SECRET), Map.of("Authorization", "Bearer token"), true);
        }
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            try (exchange) {
                files.handle(exchange, exchange.getRequestURI().getPath().substring(1));
            }
        });
        server.start();
        channel = new Files();
    }

    @AfterEach
    void stop() {
        files.release();
        server.stop(0);
    }

    private ChannelFileLoader loader(AttachmentSettings settings) {
        return ChannelFileLoader.create(Map.of("test", channel), settings);
    }

    private static Attachment file(String ref, String type, long size) {
        return new Attachment("document", ref, type, size, ref);
    }

    @Test
    void servedFiles_loadWithTheirBytes_typeAndShareableUrl_andTheChannelsHeaders() {
        byte[] text = "hello".getBytes(StandardCharsets.UTF_8);
        files.serve("a.txt", text, "text/plain").serve("p.png", PNG, "image/png");
        List<LoadedFile> loaded = loader(AttachmentSettings.DEFAULTS).load(new MessageFiles("test",
                List.of(file("a.txt", "text/plain", text.length), file("p.png", "image/png", PNG.length))));

        assertArrayEquals(text, loaded.get(0).content());
        assertEquals("text/plain", loaded.get(0).mediaType());
        assertEquals("image/png", loaded.get(1).mediaType());
        assertTrue(loaded.get(1).shareableUrl().startsWith("http://127.0.0.1:"));
        assertEquals("Bearer token", files.requests().get(0).authorization());
    }

    @Test
    void aFileLargerThanTheLimit_isRefusedBeforeItsDownload_byItsDeclaredSize_andWhileItDownloads() {
        files.serve("big.bin", new byte[2_000], "application/octet-stream");
        ChannelFileLoader loader = loader(AttachmentSettings.DEFAULTS.withLimits(1_000, 5_000));

        LoadedFile declared = loader.load(new MessageFiles("test", List.of(file("big.bin", null, 2_000)))).get(0);
        assertEquals("larger than 1000 B", declared.problem());
        assertEquals(0, files.requests().size(), "not downloaded at all");

        LoadedFile undeclared = loader.load(new MessageFiles("test", List.of(file("big.bin", null, -1)))).get(0);
        assertEquals("larger than 1000 B", undeclared.problem(), "a platform that did not say is cut at the limit");
    }

    @Test
    void theMessagesLimit_countsItsFilesTogether_andTheRestStillLoads() {
        files.serve("one", new byte[600], "application/octet-stream")
                .serve("two", new byte[600], "application/octet-stream")
                .serve("three", "ok".getBytes(StandardCharsets.UTF_8), "text/plain");
        List<LoadedFile> loaded = loader(AttachmentSettings.DEFAULTS.withLimits(1_000, 1_000)).load(
                new MessageFiles("test", List.of(file("one", null, -1), file("two", null, -1), file("three", null, 2))));

        assertTrue(loaded.get(0).ok());
        assertEquals("the message's files together are larger than 1000 B", loaded.get(1).problem());
        assertTrue(loaded.get(2).ok(), "a small file after a refused one still loads");
    }

    @Test
    void refusedExpiredCutOffAndSlowDownloads_eachNameTheirReason() {
        files.refuse("expired", 403).refuse("broken", 500)
                .truncate("cut", new byte[4_000], "application/octet-stream").hang("slow");
        ChannelFileLoader loader = loader(AttachmentSettings.DEFAULTS.withFetchTimeout(Duration.ofMillis(300)));
        List<LoadedFile> loaded = loader.load(new MessageFiles("test", List.of(file("expired", null, -1),
                file("broken", null, -1), file("cut", null, 4_000), file("slow", null, -1), file("missing", null, -1))));

        assertEquals("the platform refused the download (HTTP 403); the link may have expired", loaded.get(0).problem());
        assertEquals("the download failed (HTTP 500)", loaded.get(1).problem());
        assertTrue(loaded.get(2).problem().startsWith("the download "), loaded.get(2).problem());
        assertEquals("the download took longer than 300 ms", loaded.get(3).problem());
        assertTrue(loaded.get(4).problem().contains("HTTP 404"));
    }

    @Test
    void aChannelThatCannotLocateTheFile_givesItsReason_andAnythingElseAGenericOne() {
        List<LoadedFile> loaded = loader(AttachmentSettings.DEFAULTS).load(new MessageFiles("test",
                List.of(file("no-path", null, -1), file("crash", null, -1))));

        assertEquals("Telegram gave no path for this file", loaded.get(0).problem());
        assertEquals("the platform could not say where the file is", loaded.get(1).problem(),
                "an unexpected exception's message (it might hold a URL) is not shown");
    }

    @Test
    void aDeclaredImageThatIsNone_isRefusedAsLying_andAPartThatIsNoFileIsNotFetched() {
        files.serve("fake.png", "<html>not a picture</html>".getBytes(StandardCharsets.UTF_8), "image/png");
        List<LoadedFile> loaded = loader(AttachmentSettings.DEFAULTS).load(new MessageFiles("test",
                List.of(file("fake.png", "image/png", -1), new Attachment("sticker", null))));

        assertEquals("it was sent as image/png but is not one", loaded.get(0).problem());
        assertEquals("a sticker is not a file the bot can read", loaded.get(1).problem());
        assertNull(loaded.get(1).content());
    }

    @Test
    void theLogNamesTheReason_neverTheUrlNorTheContent() {
        files.serve("secret.txt", "TOP-SECRET-CONTENT".getBytes(StandardCharsets.UTF_8), "image/png");
        try (LogCapture log = LogCapture.of(ChannelFileLoader.class)) {
            loader(AttachmentSettings.DEFAULTS).load(new MessageFiles("test", List.of(file("secret.txt", "image/png", -1))));
            String all = String.join("\n", log.lines().stream().map(line -> line.message() + " " + line.thrown()).toList());
            assertTrue(all.contains("reason=it was sent as image/png"), all);
            assertFalse(all.contains("SECRET"), all);
            assertFalse(all.contains("127.0.0.1"), all);
        }
    }
}
