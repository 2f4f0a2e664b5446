package dev.laneway.agents.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.laneway.agents.pool.Lease;
import dev.laneway.agents.pool.PoolObserver;
import dev.laneway.agents.pool.PoolUnavailable;
import dev.laneway.agents.pool.ProviderPool;
import dev.laneway.core.UrlRedactor;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.channel.Redactor;
import dev.laneway.core.scheduling.Claim;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One model call: POST to {@code /chat/completions} through the endpoint's provider pool
 * (docs/behaviour.md §14), retrying 429s, 5xx answers, timeouts and broken connections. Each
 * attempt takes a {@link Lease} of the pool (waiting in the scheduler's order, within its limits) and
 * gives it back when the attempt is over, reporting how it went: a 429 pauses the whole pool until
 * its {@code Retry-After} (the retry then waits for that pause at the head of its class); other
 * failures wait out their own backoff holding nothing. A run that kept failing through every retry,
 * or found the pool's circuit open, fails as {@link CallFailure.Kind#UNAVAILABLE}.
 *
 * <p>Each attempt is bounded by an idle watchdog on the {@link Scheduler}: {@code timeoutMs} is the
 * longest wait for the response headers and for each further piece of the body, so a slow but
 * steady stream may take as long as it needs while a stalled one fails with {@code timeout}. An
 * attempt can be cut by the run's {@link RunGuard}. Backoff waits on the scheduler too, and an abort
 * ends them at once, as it ends a wait for the pool. Thread-safe: every field is immutable or
 * thread-safe; per-call state lives on the calling run thread.
 */
final class ChatClient {

    private static final Logger log = LoggerFactory.getLogger(ChatClient.class);

    /**
     * How one attempt ended: an answer, or a status (429, 5xx) or an endpoint failure ({@code failure}:
     * a timeout, a broken connection) to retry after {@code delay}; or a 400 to streaming usage.
     */
    private record Attempt(AssistantMessage answer, int status, String retryAfter, String failure,
                           boolean refusedStreamOptions) {
        static Attempt answered(AssistantMessage answer) {
            return new Attempt(answer, 200, null, null, false);
        }

        String reason() {
            return failure != null ? failure : "HTTP " + status;
        }
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
    private final ProviderPool pool;
    private final PoolObserver observer;
    /** Set once the server refused {@code stream_options} with a 400: later calls leave it out. */
    private final AtomicBoolean streamOptionsRefused = new AtomicBoolean();

    /** @throws IllegalArgumentException when the JDK client cannot send to the endpoint (checked at start-up) */
    ChatClient(OpenAiSettings settings, HttpClient http, Scheduler scheduler, InstantSource clock,
               ObjectMapper mapper, ProviderPool pool, PoolObserver observer) {
        this.settings = settings;
        this.clock = clock;
        this.endpoint = settings.chatCompletionsUri();
        HttpRequest.newBuilder(endpoint);
        this.http = http;
        this.scheduler = scheduler;
        this.mapper = mapper;
        this.reader = new ResponseReader(mapper);
        this.pool = pool;
        this.observer = observer;
    }

    AssistantMessage complete(ObjectNode body, Claim claim, RunGuard guard, Consumer<String> onDelta,
                              RetryListener onRetry) throws CallFailure {
        boolean again = false;
        for (int retry = 0; ; retry++) {
            boolean streamOptions = body.has(RequestBodies.STREAM_OPTIONS) && !streamOptionsRefused.get();
            byte[] bytes = serialize(streamOptions ? body : body.deepCopy().without(RequestBodies.STREAM_OPTIONS));
            Attempt attempt;
            Duration delay;
            try (Lease lease = lease(claim, again, guard)) {
                attempt = attempt(bytes, streamOptions, guard, onDelta);
                delay = report(lease, attempt, retry);
            }
            again = true;
            if (attempt.answer() != null) {
                if (attempt.answer().usage().total() > 0) {
                    observer.tokens(settings.name(), claim.tenant(), attempt.answer().usage());
                }
                return attempt.answer();
            }
            if (attempt.refusedStreamOptions()) {
                log.info("openai agent '{}': the server refused stream_options (HTTP 400); asking again without it,"
                        + " and without token usage from now on", settings.name());
                streamOptionsRefused.set(true);
                retry--;
                continue;
            }
            String reason = attempt.reason();
            if (retry >= settings.maxRetries()) {
                // a 429 through every retry is a busy provider; 5xx and timeouts an unavailable one
                throw attempt.status() == 429 ? CallFailure.failed(reason, false) : CallFailure.unavailable(reason);
            }
            log.warn("openai agent '{}': {} from the model provider, retry {} of {} in {} ms", settings.name(),
                    reason, retry + 1, settings.maxRetries(), delay.toMillis());
            onRetry.retrying(retry + 1, reason);
            if (attempt.status() != 429) {
                pause(delay, guard); // a 429's wait is the pool's pause, which the next lease waits out
            }
        }
    }

    /** Tells the lease how the attempt went; returns the wait before a retry. */
    private Duration report(Lease lease, Attempt attempt, int retry) {
        if (attempt.answer() != null) {
            lease.succeeded(attempt.answer().usage());
            return Duration.ZERO;
        }
        if (attempt.refusedStreamOptions()) {
            return Duration.ZERO; // the lease ends as neither success nor failure
        }
        if (attempt.status() == 429) {
            Duration pause = Backoff.delay(retry, attempt.retryAfter(), clock.instant());
            ProviderPool.RetryAfterProblem problem = Backoff.problem(attempt.retryAfter(), clock.instant());
            if (problem != null) {
                pool.retryAfterProblem(problem, attempt.retryAfter(), pause);
            }
            lease.rateLimited(pause);
            return pause;
        }
        lease.failed("timeout".equals(attempt.failure()));
        return Backoff.delay(retry, attempt.retryAfter(), clock.instant());
    }

    /** Waits for the pool's lease; an abort (or an interrupt) withdraws the request. */
    private Lease lease(Claim claim, boolean again, RunGuard guard) throws CallFailure {
        CompletableFuture<Lease> pending = pool.lease(claim, again);
        try {
            CompletableFuture.anyOf(pending, guard.abortSignal()).get();
        } catch (InterruptedException e) {
            withdraw(pending);
            Thread.currentThread().interrupt();
            throw CallFailure.aborted();
        } catch (ExecutionException e) {
            // the pool refused: read below
        }
        if (guard.aborted()) {
            withdraw(pending);
            throw CallFailure.aborted();
        }
        try {
            return pending.join();
        } catch (CompletionException | CancellationException e) {
            if (e.getCause() instanceof PoolUnavailable) {
                throw CallFailure.unavailable("provider unavailable");
            }
            log.error("openai agent '{}': unexpected failure waiting for provider pool {}", settings.name(),
                    pool.name(), e);
            throw CallFailure.failed("internal error", false);
        }
    }

    /** Takes a lease request back; a lease granted meanwhile is closed (its permit given back once). */
    private static void withdraw(CompletableFuture<Lease> pending) {
        if (!pending.cancel(false) && !pending.isCompletedExceptionally()) {
            pending.join().close();
        }
    }

    private Attempt attempt(byte[] body, boolean streamOptions, RunGuard guard, Consumer<String> onDelta)
            throws CallFailure {
        try {
            return exchange(body, streamOptions, guard, onDelta);
        } catch (CallFailure failure) {
            if (failure.kind() == CallFailure.Kind.FAILED && failure.retryable()) {
                return new Attempt(null, 0, null, failure.reason(), false); // the endpoint's failure: retried
            }
            throw failure;
        }
    }

    private Attempt exchange(byte[] body, boolean streamOptions, RunGuard guard, Consumer<String> onDelta)
            throws CallFailure {
        Exchange exchange = guard.open();
        exchange.watch(scheduler, settings.timeout());
        try {
            HttpResponse<InputStream> response = send(body, exchange);
            exchange.touch(); // the headers arrived
            int status = response.statusCode();
            if (status / 100 == 2) {
                return Attempt.answered(read(response, exchange, onDelta));
            }
            String detail = logError(status, response.body());
            if (status == 401 || status == 403) {
                throw CallFailure.rejected("HTTP " + status);
            }
            if (status == 429 || status >= 500) {
                return new Attempt(null, status, response.headers().firstValue("Retry-After").orElse(null), null, false);
            }
            if (status == 400 && streamOptions && detail.contains(RequestBodies.STREAM_OPTIONS)) {
                return new Attempt(null, status, null, null, true); // a server that does not know it
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

    /** Logs the error answer (redacted, shortened) and returns its text, for a look at what it says. */
    private String logError(int status, InputStream body) {
        String detail;
        try {
            detail = new String(body.readNBytes(2048), StandardCharsets.UTF_8).replaceAll("\\s+", " ").strip();
        } catch (IOException e) {
            detail = "(unreadable body)";
        }
        log.warn("openai agent '{}': HTTP {} from {}: {}", settings.name(), status, UrlRedactor.redact(endpoint),
                shortened(redacted(detail)));
        return detail;
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
