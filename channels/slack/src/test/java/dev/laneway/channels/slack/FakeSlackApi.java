package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The Slack Web API methods the channel uses, on a JDK {@link HttpServer} at 127.0.0.1: records
 * every call (form parameters and bearer token) and answers like Slack. {@code chat.postMessage}
 * can be told to answer 429 with {@code Retry-After} a number of times first.
 */
final class FakeSlackApi implements AutoCloseable {

    static final String BOT_USER = "UBOT";
    static final String BOT_ID = "BBOT";

    /** One recorded call and the HTTP status it got. */
    record Call(String method, Map<String, String> params, String token, int status) {
        String param(String name) {
            return params.get(name);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Map<String, JsonObject> users = new ConcurrentHashMap<>();
    private final AtomicInteger rateLimitedPosts = new AtomicInteger();
    private final AtomicLong nextTs = new AtomicLong(1);
    private volatile int retryAfterSeconds = 1;
    private volatile String authError;
    private volatile Supplier<String> socketUrl = () -> "ws://127.0.0.1:1/unset";

    FakeSlackApi() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    URI apiUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/");
    }

    /** Where {@code apps.connections.open} points the client. */
    void socketUrl(Supplier<String> url) {
        socketUrl = url;
    }

    /** A workspace member for {@code users.info}. */
    void user(String id, String displayName, boolean admin) {
        JsonObject profile = new JsonObject();
        profile.addProperty("display_name", displayName);
        JsonObject user = new JsonObject();
        user.addProperty("id", id);
        user.addProperty("name", displayName.toLowerCase());
        user.addProperty("real_name", displayName + " Real");
        user.addProperty("is_admin", admin);
        user.addProperty("is_owner", false);
        user.add("profile", profile);
        users.put(id, user);
    }

    /** The next {@code times} posts are answered 429 with {@code Retry-After: seconds}. */
    void rateLimitPosts(int times, int seconds) {
        retryAfterSeconds = seconds;
        rateLimitedPosts.set(times);
    }

    /** {@code auth.test} answers {@code ok:false} with this error from now on. */
    void refuseAuth(String error) {
        authError = error;
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    List<Call> calls(String method) {
        return calls.stream().filter(call -> call.method.equals(method)).toList();
    }

    /** Successful {@code chat.postMessage} calls, in order. */
    List<Call> posts() {
        return calls("chat.postMessage").stream().filter(call -> call.status == 200).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestURI().getPath().substring("/api/".length());
            Map<String, String> params = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            String token = auth != null && auth.startsWith("Bearer ") ? auth.substring(7) : params.get("token");
            int status = 200;
            JsonObject body = ok();
            switch (method) {
                case "auth.test" -> {
                    if (authError != null) {
                        body = error(authError);
                        break;
                    }
                    body.addProperty("user_id", BOT_USER);
                    body.addProperty("bot_id", BOT_ID);
                    body.addProperty("team_id", "T1");
                    body.addProperty("user", "laneway");
                }
                case "apps.connections.open" -> body.addProperty("url", socketUrl.get());
                case "chat.postMessage" -> {
                    if (rateLimitedPosts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        status = 429;
                        body = error("ratelimited");
                        exchange.getResponseHeaders().add("Retry-After", String.valueOf(retryAfterSeconds));
                    } else {
                        body.addProperty("channel", params.get("channel"));
                        body.addProperty("ts", "1800000000." + String.format("%06d", nextTs.getAndIncrement()));
                    }
                }
                case "reactions.add", "reactions.remove" -> { }
                case "users.info" -> {
                    JsonObject user = users.get(params.get("user"));
                    if (user == null) {
                        body = error("user_not_found");
                    } else {
                        body.add("user", user);
                    }
                }
                default -> body = error("unknown_method");
            }
            calls.add(new Call(method, params, token, status));
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static JsonObject ok() {
        JsonObject body = new JsonObject();
        body.addProperty("ok", true);
        return body;
    }

    private static JsonObject error(String code) {
        JsonObject body = new JsonObject();
        body.addProperty("ok", false);
        body.addProperty("error", code);
        return body;
    }

    private static Map<String, String> form(String body) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.put(key, value);
        }
        return params;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
