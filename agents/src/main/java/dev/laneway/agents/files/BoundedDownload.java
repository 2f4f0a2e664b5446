package dev.laneway.agents.files;

import dev.laneway.core.Attachment;
import dev.laneway.core.channel.FileLocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One GET of a file, bounded in bytes and time (docs/behaviour.md §15.1): the body is read only up to
 * the limit (the exchange is cancelled past it, so a huge file costs no more than the limit), a body
 * shorter than its {@code Content-Length} or than the size the platform declared is "cut off", and the
 * whole exchange is abandoned at the deadline. Failures are {@link Refused} with a reason a user can
 * read, never the URL (it may hold a token or a signature).
 */
final class BoundedDownload {

    private final HttpClient http;

    BoundedDownload(HttpClient http) {
        this.http = http;
    }

    /**
     * The file's bytes, at most {@code limit} of them, within {@code timeout} (what is left of the fetch's
     * {@code configured} time, which a failure names).
     */
    byte[] get(FileLocation location, Attachment attachment, long limit, Duration timeout, Duration configured)
            throws Refused {
        HttpRequest.Builder request = HttpRequest.newBuilder(location.url()).timeout(timeout).GET();
        location.headers().forEach(request::header);
        CompletableFuture<HttpResponse<byte[]>> exchange =
                http.sendAsync(request.build(), info -> new LimitedBody(info, limit));
        HttpResponse<byte[]> response;
        try {
            response = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new Refused("the download took longer than " + seconds(configured));
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new Refused("the download was interrupted");
        } catch (CancellationException e) {
            throw new Refused("the download was cancelled");
        } catch (ExecutionException e) {
            throw new Refused(describe(e.getCause(), limit, configured));
        }
        int status = response.statusCode();
        if (status == 401 || status == 403 || status == 404 || status == 410) {
            throw new Refused("the platform refused the download (HTTP " + status + "); the link may have expired");
        }
        if (status / 100 != 2) {
            throw new Refused("the download failed (HTTP " + status + ")");
        }
        byte[] body = response.body();
        long declared = response.headers().firstValueAsLong("Content-Length").orElse(-1);
        if (declared > body.length || attachment.size() > body.length) {
            throw new Refused("the download was cut off (" + body.length + " of "
                    + Math.max(declared, attachment.size()) + " bytes)");
        }
        return body;
    }

    private static String describe(Throwable cause, long limit, Duration timeout) {
        if (cause instanceof TooLarge) {
            return "larger than " + Attachment.humanSize(limit);
        }
        if (cause instanceof HttpTimeoutException) {
            return "the download took longer than " + seconds(timeout);
        }
        if (cause instanceof ConnectException) {
            return "the file's server could not be reached";
        }
        if (cause instanceof IOException) {
            return "the download broke off";
        }
        return "the download failed";
    }

    /** {@code 30 s}, or {@code 300 ms} for a time that is no whole number of seconds. */
    static String seconds(Duration timeout) {
        return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
    }

    /** Why a file could not be fetched, as a user reads it. */
    static final class Refused extends Exception {
        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The body passed the limit. */
    private static final class TooLarge extends IOException {
        TooLarge() {
            super("body larger than the limit", null);
        }
    }

    /** Collects the body up to {@code limit} bytes; past it (or a larger Content-Length) it cancels and fails. */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {

        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final long limit;
        private final boolean tooLargeAtOnce;
        private Flow.Subscription subscription;

        LimitedBody(HttpResponse.ResponseInfo info, long limit) {
            this.limit = limit;
            this.tooLargeAtOnce = info.statusCode() / 100 == 2
                    && info.headers().firstValueAsLong("Content-Length").orElse(-1) > limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (tooLargeAtOnce) {
                s.cancel();
                result.completeExceptionally(new TooLarge());
                return;
            }
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer item : items) {
                if (bytes.size() + (long) item.remaining() > limit) {
                    subscription.cancel();
                    result.completeExceptionally(new TooLarge());
                    return;
                }
                byte[] chunk = new byte[item.remaining()];
                item.get(chunk);
                bytes.writeBytes(chunk);
            }
        }

        @Override
        public void onError(Throwable error) {
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }
    }
}
