package dev.laneway.channels.telegram;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.laneway.config.TelegramWebhook;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.telegram.telegrambots.meta.api.objects.Update;

/**
 * Telegram's webhook mode (docs/behaviour.md §17, "Ingress"): an HTTP endpoint on every instance,
 * behind the operator's load balancer, that Telegram posts each update to. A request is taken only
 * with the {@code X-Telegram-Bot-Api-Secret-Token} header equal to the configured secret (compared
 * in constant time; a refusal is a 401 and neither the header nor the secret is ever logged). A
 * taken update goes through the same {@link UpdateHandler} as a polled batch (seen ids, conversion,
 * per-chat order) and is answered 200 only once the gateway has it journaled; an update that could
 * not be handed over (stopping, the seen ids' store unreachable) is answered 503, so Telegram sends
 * it again, possibly to another instance. An update the SDK cannot read is answered 200 and
 * skipped with a warning, as polling steps over it: sending it again would not make it readable.
 *
 * <p>Concurrency: the JDK server runs each request on a virtual thread; {@code accepting} and
 * {@code inFlight} (a phaser each request registers with) let {@link #stopReceiving} refuse new
 * requests and wait, bounded, for those being handed over. {@code refused} only counts.
 */
final class WebhookReceiver {

    static final String SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";
    /** Telegram's updates are small; anything far larger is not one. */
    static final int MAX_BODY = 1 << 20;
    private static final Logger log = LoggerFactory.getLogger(WebhookReceiver.class);

    private final TelegramWebhook webhook;
    private final byte[] secret;
    private final ObjectMapper mapper;
    private final UpdateHandler handler;
    private final HttpServer server;
    private final ExecutorService requests;
    private final AtomicBoolean accepting = new AtomicBoolean(true);
    private final Phaser inFlight = new Phaser(1);
    private final AtomicLong refused = new AtomicLong();

    private WebhookReceiver(TelegramWebhook webhook, ObjectMapper mapper, UpdateHandler handler, HttpServer server,
                            ExecutorService requests) {
        this.webhook = webhook;
        this.secret = webhook.secretToken().value().getBytes(StandardCharsets.UTF_8);
        this.mapper = mapper;
        this.handler = handler;
        this.server = server;
        this.requests = requests;
    }

    /** Listens on the webhook's address; a port that cannot be bound fails the start, naming it. */
    static WebhookReceiver start(TelegramWebhook webhook, ObjectMapper mapper, UpdateHandler handler) throws IOException {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(webhook.listenHost(), webhook.listenPort()), 0);
        } catch (IOException e) {
            throw new IOException("telegram: cannot listen for webhook updates on " + webhook.listenHost() + ":"
                    + webhook.listenPort() + " (channels.telegram.webhook.listen): " + e.getMessage());
        }
        ExecutorService requests = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("telegram-webhook-", 0).factory());
        server.setExecutor(requests);
        WebhookReceiver receiver = new WebhookReceiver(webhook, mapper, handler, server, requests);
        server.createContext(webhook.path(), receiver::serve);
        server.start();
        return receiver;
    }

    /** Where this instance listens (the bound port when the config said 0). */
    InetSocketAddress address() {
        return server.getAddress();
    }

    boolean receiving() {
        return accepting.get();
    }

    /** Requests refused for a missing or wrong secret token since the start. */
    long refused() {
        return refused.get();
    }

    /**
     * Refuses new updates with 503 (Telegram sends them again, to an instance still running behind
     * the load balancer) and waits, at most {@code bound}, for the updates being handed over.
     */
    void stopReceiving(Duration bound) {
        if (!accepting.compareAndSet(true, false)) {
            return;
        }
        int phase = inFlight.arrive();
        try {
            inFlight.awaitAdvanceInterruptibly(phase, bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException e) {
            log.warn("telegram: webhook updates were still being handed over after {} ms; stopping regardless"
                    + " (Telegram sends an unanswered update again)", bound.toMillis());
        }
    }

    void close(Duration bound) {
        stopReceiving(bound);
        server.stop(0);
        requests.shutdownNow();
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(webhook.path())) {
                answer(exchange, 404);
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "POST");
                answer(exchange, 405);
                return;
            }
            if (!secretMatches(exchange.getRequestHeaders().getFirst(SECRET_HEADER))) {
                long count = refused.incrementAndGet();
                if (count == 1 || count % 1000 == 0) {   // the header's value is never logged
                    log.warn("telegram: refused a webhook request from {} without the right {} header ({} so far)",
                            exchange.getRemoteAddress().getAddress().getHostAddress(), SECRET_HEADER, count);
                }
                answer(exchange, 401);
                return;
            }
            if (inFlight.register() < 0) {
                answer(exchange, 503);     // stopped
                return;
            }
            if (!accepting.get()) {
                inFlight.arriveAndDeregister();
                answer(exchange, 503);     // stopping
                return;
            }
            try {
                answer(exchange, take(exchange));
            } finally {
                inFlight.arriveAndDeregister();
            }
        }
    }

    /** The status for a request with the right secret: 200 once handed over (or stepped over), else 413 or 503. */
    private int take(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(MAX_BODY + 1);
        }
        if (body.length > MAX_BODY) {
            log.warn("telegram: a webhook request of more than {} bytes was refused (not an update)", MAX_BODY);
            return 413;
        }
        Update update;
        try {
            update = mapper.readValue(body, Update.class);
        } catch (IOException e) {
            log.warn("telegram: a webhook update the SDK cannot read was skipped ({} bytes): {}", body.length,
                    e.getClass().getSimpleName());
            return 200;
        }
        return handler.handOver(List.of(update)) ? 200 : 503;
    }

    private boolean secretMatches(String given) {
        return given != null && MessageDigest.isEqual(secret, given.getBytes(StandardCharsets.UTF_8));
    }

    private static void answer(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
    }
}
