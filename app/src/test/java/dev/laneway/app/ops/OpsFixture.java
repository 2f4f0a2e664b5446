package dev.laneway.app.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.config.GatewayConfig;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.RecordingListener;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A gateway wired as GatewayApp wires it (metrics observer first, then the gateway, then the ops
 * server on a free port), with the core's deterministic doubles: manual time, a trampoline
 * executor, a scripted agent and fake channels. The test thread drives the gateway; the HTTP
 * server's threads only read it, between the test's steps.
 */
final class OpsFixture implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final ManualTime time = new ManualTime();
    final TrampolineExecutor executor = new TrampolineExecutor();
    final ScriptedAgent agent = new ScriptedAgent();
    final RecordingListener dispositions = new RecordingListener();
    final Map<String, SwitchableChannel> channels = new LinkedHashMap<>();
    final AtomicBoolean storeOpen = new AtomicBoolean(true);
    final AtomicBoolean storeReachable = new AtomicBoolean(true);
    final MetricsObserver metrics;
    final Gateway gateway;
    final OpsServer server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private int nextId;

    /** One channel named {@code test}. */
    OpsFixture(GatewaySettings settings) {
        this(settings, List.of("test"));
    }

    OpsFixture(GatewaySettings settings, List<String> channelNames) {
        this(settings, channelNames, channel -> { });
    }

    /** @param beforeStart configures each channel before the gateway starts it (e.g. to fail its first starts) */
    OpsFixture(GatewaySettings settings, List<String> channelNames, Consumer<SwitchableChannel> beforeStart) {
        channelNames.forEach(name -> channels.put(name, new SwitchableChannel(name)));
        channels.values().forEach(beforeStart);
        metrics = new MetricsObserver(channelNames, List.of(agent.name()));
        Gateway.Builder builder = Gateway.builder().settings(settings).clock(time).scheduler(time).executor(executor)
                .agent(agent).listener(dispositions).observer(metrics);
        channels.values().forEach(builder::channel);
        gateway = builder.build();
        Supplier<Map<String, Boolean>> connectivity = ChannelConnectivity.of(channels.values(), gateway::channelStarted);
        metrics.bind(gateway, connectivity);
        server = new OpsServer(new GatewayConfig.Http(true, "127.0.0.1", 0),
                new OpsEndpoints(gateway, metrics, connectivity, storeOpen::get, storeReachable::get, List::of,
                        List::of));
        gateway.start();
        server.start();
    }

    SwitchableChannel channel(String name) {
        return channels.get(name);
    }

    /** A DM on channel {@code test} from {@code sender}; returns its message id. */
    String dm(String sender, String text) {
        return dm("test", sender, text);
    }

    String dm(String channel, String sender, String text) {
        InboundMessage message = InboundMessage.builder(channel).text(text).platformMessageId("m" + (++nextId))
                .chatId(sender).senderId(sender).receivedAt(time.instant()).build();
        gateway.accept(message);
        return message.platformMessageId();
    }

    HttpResponse<String> get(String path) {
        return send("GET", path);
    }

    HttpResponse<String> send(String method, String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(10)).method(method, HttpRequest.BodyPublishers.noBody()).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** GET {@code path}, expecting the status, parsed as JSON. */
    JsonNode json(String path, int expectedStatus) {
        HttpResponse<String> response = get(path);
        if (response.statusCode() != expectedStatus) {
            throw new AssertionError(path + " answered " + response.statusCode() + ": " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value of one Prometheus series from {@code GET /metrics}, e.g. {@code laneway_pending_messages}. */
    double metric(String series) {
        return PrometheusText.value(get("/metrics").body(), series);
    }

    /** Every open scripted run, completed in start order. */
    void completeOpenRuns() {
        new ArrayList<>(agent.openRuns()).forEach(run -> run.complete("done"));
    }

    @Override
    public void close() {
        server.stop();
    }
}
