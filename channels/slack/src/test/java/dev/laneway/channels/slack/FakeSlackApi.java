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
 * and the reaction methods can be told to answer 429 with {@code Retry-After} a number of times
 * first; {@code chat.postMessage} can refuse channels the bot is not in, or answer any status and
 * body a number of times (a 500, a proxy's error page, an error that echoes the token); {@code users.info} can be
 * held for one user until the test releases it; {@code conversations.info} and
 * {@code conversations.history} know the bot's IMs and answer {@code missing_scope} without
 * {@code im:read} / {@code im:history}, or can be made to fail. Every answer carries the granted
 * scopes in {@code x-oauth-scopes} (all the manifest's, unless the test says otherwise).
 * Slash commands' {@code response_url}s are served under {@code /commands/} and recorded.
 */
final class FakeSlackApi implements AutoCloseable {

    static final String BOT_USER = "UBOT";
    static final String BOT_ID = "BBOT";

    /** One answer posted to a slash command's {@code response_url}. */
    record Response(String path, String text, String responseType, int status) {
    }

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
    private final AtomicInteger failedPosts = new AtomicInteger();
    private volatile int failedPostStatus;
    private volatile String failedPostBody;
    private final AtomicInteger rateLimitedReactions = new AtomicInteger();
    private final Map<String, java.util.Queue<String>> reactionErrors = new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicInteger rateLimitedUpdates = new AtomicInteger();
    // "<channel>:<ts>" -> the bot message's text now (posted, then updated), in the order posted
    private final Map<String, String> screen = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
    private final List<Response> responses = new CopyOnWriteArrayList<>();
    private final Map<String, String> botIms = new ConcurrentHashMap<>();
    private final java.util.Set<String> notInChannels = ConcurrentHashMap.newKeySet();
    private final Map<String, java.util.concurrent.CountDownLatch> heldUsers = new ConcurrentHashMap<>();
    private volatile int responseStatus = 200;
    private volatile java.util.Set<String> scopes = BotScopes.NEEDED.keySet();
    private volatile boolean advertiseScopes = true;
    private volatile boolean failConversationLookups;
    private final AtomicLong nextTs = new AtomicLong(1);
    private volatile int retryAfterSeconds = 1;
    private volatile String authError;
    private volatile String streamError;           // every chat.startStream answers ok:false with it, or null
    // "<channel>:<ts>" of streams started and not stopped
    private final java.util.Set<String> openStreams = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile String appTokenError;
    private volatile Supplier<String> socketUrl = () -> "ws://127.0.0.1:1/unset";

    FakeSlackApi() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/", this::handle);
        server.createContext("/commands/", this::respond);
        server.createContext("/files-pri/", exchange -> {
            try (exchange) {
                files.handle(exchange, exchange.getRequestURI().getPath().substring("/files-pri/".length()));
            }
        });
        server.setExecutor(executor);
        server.start();
    }

    /** The files Slack serves at {@code url_private}: only with the bot token (docs/behaviour.md §15.1). */
    final dev.laneway.core.testing.FakeFiles files = new dev.laneway.core.testing.FakeFiles();

    /** A file's {@code url_private} on this fake. */
    String urlPrivate(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/files-pri/" + path;
    }

    URI apiUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/");
    }

    /** A {@code response_url} for one slash command invocation, served by this fake. */
    String responseUrl(String invocation) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/commands/T1/" + invocation;
    }

    /** Answers to slash commands, in order. */
    List<Response> responses() {
        return List.copyOf(responses);
    }

    /** {@code response_url}s answer this HTTP status from now on (e.g. 404 for an expired URL). */
    void responseStatus(int status) {
        responseStatus = status;
    }

    /** {@code channel} is an IM between the bot and {@code user}; other D channels are not the bot's. */
    void botIm(String channel, String user) {
        botIms.put(channel, user);
    }

    /** The bot token has only these scopes. */
    void scopes(java.util.Set<String> granted) {
        scopes = java.util.Set.copyOf(granted);
    }

    /** The bot token has every scope the manifest lists but {@code missing}. */
    void scopesWithout(String... missing) {
        java.util.Set<String> granted = new java.util.HashSet<>(BotScopes.NEEDED.keySet());
        List.of(missing).forEach(granted::remove);
        scopes(granted);
    }

    /** Answers carry no {@code x-oauth-scopes} header (a proxy that drops it). */
    void hideScopes() {
        advertiseScopes = false;
    }

    /** {@code conversations.info} and {@code conversations.history} answer HTTP 503 while {@code failing}. */
    void failConversationLookups(boolean failing) {
        failConversationLookups = failing;
    }

    /** {@code chat.postMessage} to {@code channel} fails with {@code not_in_channel}. */
    void notIn(String channel) {
        notInChannels.add(channel);
    }

    /** {@code users.info} for {@code user} waits until the returned latch is counted down. */
    java.util.concurrent.CountDownLatch holdUser(String user) {
        java.util.concurrent.CountDownLatch latch = new java.util.concurrent.CountDownLatch(1);
        heldUsers.put(user, latch);
        return latch;
    }

    /** The next reaction calls of {@code method} ({@code reactions.add} or {@code .remove}) answer these errors, one each. */
    void failReactions(String method, String... errors) {
        reactionErrors.computeIfAbsent(method, m -> new java.util.concurrent.ConcurrentLinkedQueue<>())
                .addAll(List.of(errors));
    }

    /** The next {@code times} reaction calls are answered 429 with a Retry-After of a minute. */
    void rateLimitReactions(int times) {
        rateLimitedReactions.set(times);
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

    /** A bot user (an app's bot, or a legacy bot user) for {@code users.info}. */
    void botUser(String id, String name) {
        user(id, name, false);
        users.get(id).addProperty("is_bot", true);
    }

    /** The next {@code times} {@code chat.update} calls are answered 429 with {@code Retry-After: seconds}. */
    void rateLimitUpdates(int times, int seconds) {
        retryAfterSeconds = seconds;
        rateLimitedUpdates.set(times);
    }

    /** What the bot's messages in {@code channel} show now (after every update), in the order posted. */
    List<String> screen(String channel) {
        String prefix = channel + ":";
        synchronized (screen) {
            return screen.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).map(Map.Entry::getValue)
                    .toList();
        }
    }

    /** The next {@code times} posts are answered 429 with {@code Retry-After: seconds}. */
    void rateLimitPosts(int times, int seconds) {
        retryAfterSeconds = seconds;
        rateLimitedPosts.set(times);
    }

    /** The next {@code times} posts are answered HTTP {@code status} with {@code body} (taken as is). */
    void failPosts(int times, int status, String body) {
        failedPostStatus = status;
        failedPostBody = body;
        failedPosts.set(times);
    }

    /** {@code apps.connections.open} answers {@code ok:false} with this error from now on (a wrong app token). */
    void refuseAppToken(String error) {
        appTokenError = error;
    }

    /** {@code chat.startStream} answers {@code ok:false} with this error from now on (null: streams are taken). */
    void refuseStreams(String error) {
        streamError = error;
    }

    /** Whether the bot's message {@code ts} in {@code channel} is a stream not stopped yet. */
    boolean streamOpen(String channel, String ts) {
        return openStreams.contains(channel + ":" + ts);
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
                case "apps.connections.open" -> {
                    if (appTokenError != null) {
                        body = error(appTokenError);
                    } else {
                        body.addProperty("url", socketUrl.get());
                    }
                }
                case "chat.postMessage" -> {
                    if (failedPosts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        calls.add(new Call(method, params, token, failedPostStatus));
                        byte[] raw = failedPostBody.getBytes(StandardCharsets.UTF_8);
                        exchange.sendResponseHeaders(failedPostStatus, raw.length);
                        try (OutputStream out = exchange.getResponseBody()) {
                            out.write(raw);
                        }
                        return;
                    }
                    if (rateLimitedPosts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        status = 429;
                        body = error("ratelimited");
                        exchange.getResponseHeaders().add("Retry-After", String.valueOf(retryAfterSeconds));
                    } else if (notInChannels.contains(params.get("channel"))) {
                        body = error("not_in_channel");
                    } else {
                        body.addProperty("channel", params.get("channel"));
                        String ts = "1800000000." + String.format("%06d", nextTs.getAndIncrement());
                        body.addProperty("ts", ts);
                        screen.put(params.get("channel") + ":" + ts, params.get("text"));
                    }
                }
                case "chat.startStream" -> {
                    if (streamError != null) {
                        body = error(streamError);
                    } else if (params.get("thread_ts") == null || !params.get("channel").startsWith("D")
                            && (params.get("recipient_user_id") == null || params.get("recipient_team_id") == null)) {
                        body = error("invalid_arguments"); // a thread, and outside a DM its recipient, are required
                    } else {
                        String ts = "1800000000." + String.format("%06d", nextTs.getAndIncrement());
                        body.addProperty("channel", params.get("channel"));
                        body.addProperty("ts", ts);
                        screen.put(params.get("channel") + ":" + ts, params.getOrDefault("markdown_text", ""));
                        openStreams.add(params.get("channel") + ":" + ts);
                    }
                }
                case "chat.appendStream", "chat.stopStream" -> {
                    String key = params.get("channel") + ":" + params.get("ts");
                    if (!openStreams.contains(key)) {
                        body = error("message_not_in_streaming_state");
                    } else {
                        String more = params.getOrDefault("markdown_text", "");
                        screen.computeIfPresent(key, (k, shown) -> shown + more);
                        if (method.equals("chat.stopStream")) {
                            openStreams.remove(key);
                        }
                        body.addProperty("channel", params.get("channel"));
                        body.addProperty("ts", params.get("ts"));
                    }
                }
                case "chat.update" -> {
                    if (rateLimitedUpdates.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        status = 429;
                        body = error("ratelimited");
                        exchange.getResponseHeaders().add("Retry-After", String.valueOf(retryAfterSeconds));
                    } else if (openStreams.contains(params.get("channel") + ":" + params.get("ts"))) {
                        body = error("message_in_streaming_state"); // a stream is stopped before it is replaced
                    } else if (screen.replace(params.get("channel") + ":" + params.get("ts"), params.get("text")) == null) {
                        body = error("message_not_found");
                    } else {
                        body.addProperty("channel", params.get("channel"));
                        body.addProperty("ts", params.get("ts"));
                    }
                }
                case "reactions.add", "reactions.remove" -> {
                    if (rateLimitedReactions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        status = 429;
                        body = error("ratelimited");
                        exchange.getResponseHeaders().add("Retry-After", "60");
                    } else {
                        java.util.Queue<String> errors = reactionErrors.get(method);
                        String failure = errors == null ? null : errors.poll();
                        if (failure != null) {
                            body = error(failure);
                        }
                    }
                }
                case "conversations.info" -> {
                    String channel = params.get("channel");
                    if (failConversationLookups) {
                        status = 503;
                        body = error("service_unavailable");
                    } else if (channel.startsWith("D") && !scopes.contains("im:read")) {
                        body = missingScope("im:read");
                    } else if (!botIms.containsKey(channel)) {
                        body = error("channel_not_found");
                    } else {
                        JsonObject conversation = new JsonObject();
                        conversation.addProperty("id", channel);
                        conversation.addProperty("is_im", true);
                        conversation.addProperty("user", botIms.get(channel));
                        body.add("channel", conversation);
                    }
                }
                case "conversations.history" -> {
                    String channel = params.get("channel");
                    if (failConversationLookups) {
                        status = 503;
                        body = error("service_unavailable");
                    } else if (channel.startsWith("D") && !scopes.contains("im:history")) {
                        body = missingScope("im:history");
                    } else if (!botIms.containsKey(channel)) {
                        body = error("channel_not_found");
                    } else {
                        body.add("messages", new com.google.gson.JsonArray());
                        body.addProperty("has_more", false);
                    }
                }
                case "users.info" -> {
                    java.util.concurrent.CountDownLatch held = heldUsers.get(params.get("user"));
                    if (held != null) {
                        awaitQuietly(held);
                    }
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
            if (advertiseScopes) {
                exchange.getResponseHeaders().add("X-OAuth-Scopes", String.join(",", scopes));
            }
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private void respond(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonObject json = com.google.gson.JsonParser.parseString(
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)).getAsJsonObject();
            int status = responseStatus;
            responses.add(new Response(exchange.getRequestURI().getPath(), json.get("text").getAsString(),
                    json.has("response_type") ? json.get("response_type").getAsString() : null, status));
            byte[] bytes = (status == 200 ? "ok" : "expired_url").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static void awaitQuietly(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static JsonObject ok() {
        JsonObject body = new JsonObject();
        body.addProperty("ok", true);
        return body;
    }

    private static JsonObject missingScope(String needed) {
        JsonObject body = error("missing_scope");
        body.addProperty("needed", needed);
        body.addProperty("provided", "(the test's scopes)");
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
        files.release();
        server.stop(0);
        executor.shutdownNow();
    }
}
