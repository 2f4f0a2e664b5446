package dev.laneway.channels.telegram;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;

/**
 * Keeps OkHttp from sending a call of the {@link TelegramSender} to Telegram a second time
 * (docs/decisions.md D249): the Bot API has no idempotent send, and OkHttp's retry on a failed
 * connection sends a request again even after it went out (a {@code sendMessage} whose answer a
 * dropped connection cut off was then shown twice, L62). Its retry stays on for what it is good
 * for, a kept-alive connection the server closed before anything was sent on it:
 * <ul>
 *   <li>before an HTTP/1.1 request is written, its connection is checked (a read of at most 1 ms):
 *       one the server has closed is closed and fails the attempt before anything went out, and the
 *       call goes again on a new connection;</li>
 *   <li>an attempt that failed once its request was being written marks the call: no later attempt
 *       of it reaches the server, and the call fails with {@link MayHaveArrived}, which the sender
 *       counts as {@code OUTCOME_UNKNOWN} (not sent again by the outbox either), whatever the last
 *       attempt met (a refused connection would otherwise read as a request that never left).</li>
 * </ul>
 *
 * <p>Concurrency: {@code wentOut} is a concurrent set of the calls under way with such an
 * attempt; the network interceptor adds to it, the application interceptor removes the call when
 * it ends. Any thread may run either.
 */
final class SendOnce {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SendOnce.class);

    private final Set<Call> wentOut = ConcurrentHashMap.newKeySet();

    /** {@code client}, its connections and dispatcher shared, with this guard around each call. */
    OkHttpClient guard(OkHttpClient client) {
        return client.newBuilder()
                .addInterceptor(this::call)
                .addNetworkInterceptor(this::attempt)
                .build();
    }

    /**
     * The application interceptor: once per call, around OkHttp's retries. A connection found closed
     * before anything was sent on it ({@link NotSent}; OkHttp does not retry what a network
     * interceptor throws) is replaced: the call goes again, on another, up to {@link #ATTEMPTS} times.
     */
    private Response call(Interceptor.Chain chain) throws IOException {
        Call call = chain.call();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    return chain.proceed(chain.request());
                } catch (IOException e) {
                    if (wentOut.contains(call)) {
                        throw new MayHaveArrived(e);
                    }
                    if (!(e instanceof NotSent) || attempt >= ATTEMPTS) {
                        throw e;
                    }
                    log.debug("telegram: {}; sending on another connection", e.getMessage());
                }
            }
        } finally {
            wentOut.remove(call);
        }
    }

    /** How many connections a call tries when each was found closed before its request. */
    private static final int ATTEMPTS = 3;

    /** The network interceptor: once per attempt, on its connection. */
    private Response attempt(Interceptor.Chain chain) throws IOException {
        Call call = chain.call();
        if (wentOut.contains(call)) {
            throw new IOException("not sent again: an earlier attempt of this call may have reached Telegram");
        }
        Connection connection = chain.connection();
        if (connection != null && connection.protocol() == Protocol.HTTP_1_1) {
            checkOpen(connection.socket());
        }
        try {
            return chain.proceed(chain.request());
        } catch (IOException e) {
            wentOut.add(call);     // its request may have gone out, all of it
            throw e;
        }
    }

    /**
     * Fails when the server closed the connection (or reset it, or sent something unasked on an idle
     * one, which spoils it too), closing it so that OkHttp's next attempt takes another; returns
     * after at most 1 ms when it is open and quiet.
     */
    private static void checkOpen(Socket socket) throws IOException {
        int timeout = socket.getSoTimeout();
        String unusable;
        try {
            socket.setSoTimeout(1);
            InputStream in = socket.getInputStream();
            unusable = in.read() < 0 ? "the server closed this kept-alive connection"
                    : "the server sent something unasked on this idle connection";
        } catch (SocketTimeoutException open) {
            socket.setSoTimeout(timeout);
            return;        // open, and nothing to read: the request goes on it
        } catch (IOException e) {
            unusable = "this kept-alive connection failed (" + e + ")";
        }
        socket.close();    // OkHttp's pool takes a closed socket for no connection: the next attempt opens one
        throw new NotSent(unusable + "; nothing was sent on it");
    }

    /** The attempt's connection was found unusable before its request was written. */
    static final class NotSent extends IOException {
        NotSent(String message) {
            super(message);
        }
    }

    /**
     * A call that failed after one of its attempts may have reached Telegram: it may well have been
     * delivered. Carries the last failure's description only, not the failure (a refused
     * connection in its chain would read as a request that never left).
     */
    static final class MayHaveArrived extends IOException {
        MayHaveArrived(IOException last) {
            super("the connection failed once the request was being sent; not sent again (" + last + ")");
        }
    }
}
