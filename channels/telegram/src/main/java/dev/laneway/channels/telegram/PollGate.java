package dev.laneway.channels.telegram;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Lets the channel stop long polling at once, quietly, and without confirming anything more.
 * Telegram confirms every update below a {@code getUpdates} offset, and keeps the others for the
 * next poller, so once the channel stops receiving no {@code getUpdates} may reach the server
 * again. After {@link #close} every {@code getUpdates} (the SDK's next, or the one the server is
 * holding open) is answered here with an empty batch: the SDK moves on without an error, a stack
 * trace or a backoff, and nothing it fetched but had not handed over yet is taken (unconfirmed,
 * it comes again at the next start).
 *
 * <p>Cutting off the held request by cancelling the SDK's own call would not do: OkHttp fails a
 * cancelled call whatever its interceptors answer, and the SDK logs that as an ERROR with a stack
 * trace. So this application interceptor sends each {@code getUpdates} as a call of its own on
 * {@code network} (the polling client without this interceptor) and cancels that one instead.
 * Other requests pass through unchanged. Never logs a URL (the bot token is in every path).
 *
 * <p>Concurrency: {@code closed} is volatile; {@code inFlight} is a concurrent set. A call is added
 * before {@code closed} is read again, and {@link #close} sets {@code closed} before it cancels
 * what it finds, so a call is either cancelled or sees {@code closed}.
 */
final class PollGate implements Interceptor {

    private static final MediaType JSON = MediaType.get("application/json");
    private static final String NOTHING = "{\"ok\":true,\"result\":[]}";

    private final OkHttpClient network;
    private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** @param network sends the {@code getUpdates} requests (the polling client minus this interceptor) */
    PollGate(OkHttpClient network) {
        this.network = network;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        if (!PoisonUpdateInterceptor.isGetUpdates(request)) {
            return chain.proceed(request);
        }
        if (closed) {
            return nothing(request);
        }
        Call call = network.newCall(request);
        inFlight.add(call);
        try {
            if (closed) {
                return nothing(request);
            }
            Response response = call.execute();
            if (closed) {
                response.close();   // fetched as the channel stopped: not handed over, not confirmed
                return nothing(request);
            }
            return response;
        } catch (IOException e) {
            if (closed) {
                return nothing(request);
            }
            throw e;
        } finally {
            inFlight.remove(call);
        }
    }

    /** From now on no {@code getUpdates} reaches the server; the one it holds open ends at once. */
    void close() {
        closed = true;
        inFlight.forEach(Call::cancel);
    }

    private static Response nothing(Request request) {
        return new Response.Builder()
                .request(request)
                .protocol(Protocol.HTTP_1_1)
                .code(200)
                .message("OK")
                .body(ResponseBody.create(NOTHING, JSON))
                .build();
    }
}
