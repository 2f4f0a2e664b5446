package dev.laneway.agents.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.laneway.core.UrlRedactor;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.channel.Redactor;
import dev.laneway.core.time.Scheduler;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One model call: POST to {@code /chat/completions}, retrying 429 and 5xx answers with backoff.
 * Each attempt is bounded by an idle watchdog on the {@link Scheduler}: {@code timeoutMs} is the
 * longest wait for the response headers and for each further piece of the body, so a slow but
 * steady stream may take as long as it needs while a stalled one fails with {@code timeout}. An
 * attempt can be cut by the run's {@link RunGuard}. Backoff waits on the scheduler too, and an abort
 * ends them at once. Thread-safe: every field is immutable or thread-safe; per-call state lives on
 * the calling run thread.
 */
final class ChatClient {

    private static final Logger log = LoggerFactory.getLogger(ChatClient.class);

    private record Attempt(AssistantMessage answer, int status, String retryAfter) {
    }

    /** Told before each retry: its number (1 for the first retry) and why, e.g. {@code HTTP 503}. */
    @FunctionalInterface
    interface RetryListener {
        void retrying(int retry, String reason);
    }

    private final OpenAiSettings settings;
    private final HttpClient http;
    private final Scheduler scheduler;
    private final InstantSource clock;
    private final ObjectMapper mapper;
    private final ResponseReader reader;
    private final URI endpoint;

    /** @throws IllegalArgumentException when the JDK client cannot send to the endpoint (checked at start-up) */
    ChatClient(OpenAiSettings settings, HttpClient http, Scheduler scheduler, InstantSource clock,
               ObjectMapper mapper) {
        this.settings = settings;
        this.clock = clock;
        this.endpoint = settings.chatCompletionsUri();
        HttpRequest.newBuilder(endpoint);
        this.http = http;
        this.scheduler = scheduler;
        this.mapper = mapper;
        this.reader = new ResponseReader(mapper);
    }

    AssistantMessage complete(ObjectNode body, RunGuard guard, Consumer<String> onDelta, RetryListener onRetry)
            throws CallFailure {
        byte[] bytes = serialize(body);
        for (int retry = 0; ; retry++) {
            Attempt attempt = attempt(bytes, guard, onDelta);
            if (attempt.answer() != null) {
                return attempt.answer();
            }
            String reason = "HTTP " + attempt.status();
            if (retry >= settings.maxRetries()) {
                throw CallFailure.failed(reason, false);
            }
            Duration delay = Backoff.delay(retry, attempt.retryAfter(), clock.instant());
            log.warn("openai agent '{}': {} from the model provider, retry {} of {} in {} ms", settings.name(),
                    reason, retry + 1, settings.maxRetries(), delay.toMillis());
            onRetry.retrying(retry + 1, reason);
            pause(delay, guard);
        }
    }

    private Attempt attempt(byte[] body, RunGuard guard, Consumer<String> onDelta) throws CallFailure {
        Exchange exchange = guard.open();
        exchange.watch(scheduler, settings.timeout());
        try {
            HttpResponse<InputStream> response = send(body, exchange);
            exchange.touch(); // the headers arrived
            int status = response.statusCode();
            if (status / 100 == 2) {
                return new Attempt(read(response, exchange, onDelta), status, null);
            }
            logError(status, response.body());
            if (status == 401 || status == 403) {
                throw CallFailure.rejected("HTTP " + status);
            }
            if (status == 429 || status >= 500) {
                return new Attempt(null, status, response.headers().firstValue("Retry-After").orElse(null));
            }
            throw CallFailure.failed("HTTP " + status, false);
        } catch (CallFailure failure) {
            throw explain(failure, guard, exchange);
        } catch (IOException | RuntimeException e) {
            throw explain(translate(e), guard, exchange);
        } finally {
            exchange.unwatch();
            guard.close(exchange);
            exchange.cut(); // releases the body; after a complete read this only closes the stream
        }
    }

    private HttpResponse<InputStream> send(byte[] body, Exchange exchange) {
        // No HttpRequest.timeout: the exchange's idle watchdog bounds the headers and every gap after them.
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/json")
                .header("Accept", settings.stream() ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (!settings.apiKey().isEmpty()) {
            request.header("Authorization", "Bearer " + settings.apiKey());
        }
        CompletableFuture<HttpResponse<InputStream>> pending =
                http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        exchange.attach(pending);
        HttpResponse<InputStream> response = pending.join();
        exchange.attach(response.body());
        return response;
    }

    private AssistantMessage read(HttpResponse<InputStream> response, Exchange exchange, Consumer<String> onDelta)
            throws IOException, CallFailure {
        boolean json = response.headers().firstValue("Content-Type").orElse("").contains("application/json");
        InputStream body = new ProgressStream(response.body(), exchange::touch);
        return settings.stream() && !json ? reader.readStream(body, onDelta) : reader.readWhole(body);
    }

    /** An abort or a timeout explains any failure it caused. */
    private static CallFailure explain(CallFailure failure, RunGuard guard, Exchange exchange) {
        if (guard.aborted()) {
            return CallFailure.aborted();
        }
        if (exchange.timedOut()) {
            return CallFailure.failed("timeout", true);
        }
        return failure;
    }

    private CallFailure translate(Exception e) {
        Throwable cause = e;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return switch (cause) {
            case HttpTimeoutException t -> CallFailure.failed("timeout", true);
            case ConnectException c -> CallFailure.failed("connection refused", true);
            case UnknownHostException u -> CallFailure.failed("unknown host", false);
            case UnresolvedAddressException u -> CallFailure.failed("unknown host", false);
            case CancellationException c -> CallFailure.failed("cancelled", true);
            case IOException io -> {
                log.info("openai agent '{}': connection failed: {}", settings.name(), io.toString());
                yield CallFailure.failed("connection error", true);
            }
            default -> {
                log.error("openai agent '{}': unexpected failure calling the model", settings.name(), cause);
                yield CallFailure.failed("internal error", false);
            }
        };
    }

    private void pause(Duration delay, RunGuard guard) throws CallFailure {
        CompletableFuture<Void> elapsed = new CompletableFuture<>();
        Scheduler.Cancellable timer = scheduler.schedule(delay, () -> elapsed.complete(null));
        try {
            CompletableFuture.anyOf(elapsed, guard.abortSignal()).join();
        } finally {
            timer.cancel();
        }
        if (guard.aborted()) {
            throw CallFailure.aborted();
        }
    }

    private void logError(int status, InputStream body) {
        String detail;
        try {
            detail = new String(body.readNBytes(2048), StandardCharsets.UTF_8).replaceAll("\\s+", " ").strip();
        } catch (IOException e) {
            detail = "(unreadable body)";
        }
        log.warn("openai agent '{}': HTTP {} from {}: {}", settings.name(), status, UrlRedactor.redact(endpoint),
                shortened(redacted(detail)));
    }

    private static String shortened(String detail) {
        return detail.length() > 300 ? detail.substring(0, 300) + "…" : detail;
    }

    /**
     * The provider's error text without the API key: some servers echo the key they refused. Runs
     * before {@link #shortened}, so a key cut at the 300th character cannot slip through in part.
     */
    private String redacted(String detail) {
        return Redactor.of(settings.apiKey()).redact(detail);
    }

    private byte[] serialize(ObjectNode body) throws CallFailure {
        try {
            return mapper.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw CallFailure.failed("internal error", false);
        }
    }
}
