package dev.laneway.channels.discord;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import net.dv8tion.jda.api.utils.data.DataArray;
import net.dv8tion.jda.api.utils.data.DataObject;

/**
 * Discord's REST API on 127.0.0.1, the routes JDA uses here: {@code GET users/@me},
 * {@code POST users/@me/channels} (open a DM), {@code POST channels/{id}/messages},
 * {@code POST channels/{id}/typing}, {@code PUT applications/{id}/commands}, interaction callbacks,
 * follow-ups and edits of the original reply ({@code PATCH webhooks/{app}/{token}/messages/@original}).
 * Every request is recorded with when it arrived; {@link #rateLimitNext} makes the next message post
 * get a 429 the way Discord sends one, {@link #failNextPosts} any other status and body,
 * {@link #refuseNextFollowUps} makes follow-ups fail, and
 * {@link #holdAndRefuseCallbacks} holds interaction acknowledgements until the test lets them be
 * refused. A channel route for a channel it does not know (not the test servers' channels and
 * thread, not a DM channel) is answered 404 Unknown Channel, as Discord does.
 *
 * <p>Concurrency: the JDK server calls {@code handle} on its own threads; every field is a
 * concurrent list or an atomic.
 */
final class FakeDiscordRest implements AutoCloseable {

    static final String PREFIX = "/api/v10/";

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicLong messageIds = new AtomicLong(9_000);
    private final AtomicInteger rateLimited = new AtomicInteger();
    private final AtomicInteger failedPosts = new AtomicInteger();
    private volatile int failedPostStatus;
    private volatile String failedPostBody;
    private final AtomicInteger refusedFollowUps = new AtomicInteger();
    private volatile java.util.concurrent.CountDownLatch refuseCallbacks;
    private volatile boolean rejectToken;
    private final AtomicInteger rateLimitedEdits = new AtomicInteger();
    private final AtomicInteger rateLimitedReactions = new AtomicInteger();
    private final AtomicInteger refusedReactions = new AtomicInteger();
    // "<channel id>:<message id>" -> the bot message's content now (posted, then edited), in the order posted
    private final java.util.Map<String, String> screen =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>());

    FakeDiscordRest() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PREFIX;
    }

    /** The next {@code count} message posts are answered 429 with a Retry-After of one second. */
    void rateLimitNext(int count) {
        rateLimited.set(count);
    }

    /** The next {@code count} message edits are answered 429 (JDA waits it out and tries again). */
    void rateLimitNextEdits(int count) {
        rateLimitedEdits.set(count);
    }

    /** What the bot's messages in {@code channelId} show now (after every edit), in the order posted. */
    List<String> screen(String channelId) {
        String prefix = channelId + ":";
        synchronized (screen) {
            return screen.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                    .map(java.util.Map.Entry::getValue).toList();
        }
    }

    /** Every edit of a message in {@code channelId}. */
    List<Request> editsIn(String channelId) {
        return requests(r -> r.method().equals("PATCH") && r.path().matches("channels/" + channelId + "/messages/\\d+"));
    }

    /** The next {@code count} reaction calls are answered 429 with a Retry-After of a minute. */
    void rateLimitNextReactions(int count) {
        rateLimitedReactions.set(count);
    }

    /** The next {@code count} reaction calls are refused 403 Missing Permissions. */
    void refuseNextReactions(int count) {
        refusedReactions.set(count);
    }

    /**
     * The reaction calls on messages in {@code channelId}, in order, as {@code +<message> <emoji>}
     * (added) or {@code -<message> <emoji>} (removed), with the emoji URL-decoded.
     */
    List<String> reactionsIn(String channelId) {
        return requests(r -> r.path().matches("channels/" + channelId + "/messages/\\d+/reactions/[^/]+/@me")).stream()
                .map(r -> {
                    String[] parts = r.path().split("/");
                    return (r.method().equals("PUT") ? "+" : "-") + parts[3] + " "
                            + java.net.URLDecoder.decode(parts[5], StandardCharsets.UTF_8);
                }).toList();
    }

    /** The next {@code count} message posts are answered HTTP {@code status} with {@code body}. */
    void failNextPosts(int count, int status, String body) {
        failedPostStatus = status;
        failedPostBody = body;
        failedPosts.set(count);
    }

    /** The next {@code count} interaction follow-ups are refused with a 400, as Discord does for a bad body. */
    void refuseNextFollowUps(int count) {
        refusedFollowUps.set(count);
    }

    /**
     * From now on, interaction callbacks (acknowledgements) wait until the returned latch is
     * counted down, then fail with a 404 "Unknown interaction", as Discord answers an
     * acknowledgement that came too late.
     */
    java.util.concurrent.CountDownLatch holdAndRefuseCallbacks() {
        java.util.concurrent.CountDownLatch latch = new java.util.concurrent.CountDownLatch(1);
        refuseCallbacks = latch;
        return latch;
    }

    /** Answers every request 401, as Discord does for a wrong bot token. */
    void rejectToken() {
        rejectToken = true;
    }

    /** The CDN's files, served under {@code /attachments/} (docs/behaviour.md §15.1). */
    final dev.laneway.core.testing.FakeFiles files = new dev.laneway.core.testing.FakeFiles();

    /** The CDN URL of a file served under {@code /attachments/<path>}, signed as Discord signs them. */
    String cdnUrl(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/attachments/" + path + "?ex=66&is=65&hm=sig";
    }

    private void handle(HttpExchange exchange) throws IOException {
        if (exchange.getRequestURI().getPath().startsWith("/attachments/")) {
            try (exchange) {
                files.handle(exchange, exchange.getRequestURI().getPath().substring("/attachments/".length()));
            }
            return;
        }
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
        String raw = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Request request = new Request(method, path, raw, System.nanoTime());
        requests.add(request);
        try {
            if (rejectToken) {
                respond(exchange, 401, DataObject.empty().put("message", "401: Unauthorized").put("code", 0).toString());
                return;
            }
            route(exchange, request);
        } catch (RuntimeException e) {
            respond(exchange, 500, DataObject.empty().put("message", e.toString()).put("code", 0).toString());
        }
    }

    private void route(HttpExchange exchange, Request request) throws IOException {
        String path = request.path();
        if (request.is("GET", "users/@me")) {
            respond(exchange, 200, DiscordJson.bot().toString());
        } else if (request.is("POST", "users/@me/channels")) {
            String userId = request.json().getString("recipient_id");
            respond(exchange, 200, DataObject.empty().put("id", dmChannel(userId)).put("type", 1)
                    .put("last_message_id", null)
                    .put("recipients", DataArray.empty().add(DiscordJson.userFor(userId))).toString());
        } else if (path.matches("channels/\\d+/.*") && !knownChannel(path.split("/")[1])) {
            respond(exchange, 404, DataObject.empty().put("message", "Unknown Channel").put("code", 10003).toString());
        } else if (request.method().equals("POST") && path.matches("channels/\\d+/typing")) {
            respond(exchange, 204, null);
        } else if (request.method().equals("POST") && path.matches("channels/\\d+/messages")) {
            if (rateLimited.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                rateLimit(exchange);
                return;
            }
            if (failedPosts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                respond(exchange, failedPostStatus, failedPostBody);
                return;
            }
            String channelId = path.split("/")[1];
            String id = nextId();
            screen.put(channelId + ":" + id, request.json().getString("content", ""));
            respond(exchange, 200, DiscordJson.createdMessage(id, channelId, request.json()).toString());
        } else if (request.method().equals("PATCH") && path.matches("channels/\\d+/messages/\\d+")) {
            if (rateLimitedEdits.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                rateLimit(exchange);
                return;
            }
            String[] parts = path.split("/");
            if (screen.replace(parts[1] + ":" + parts[3], request.json().getString("content", "")) == null) {
                respond(exchange, 404, DataObject.empty().put("message", "Unknown Message").put("code", 10008).toString());
                return;
            }
            respond(exchange, 200, DiscordJson.createdMessage(parts[3], parts[1], request.json()).toString());
        } else if ((request.method().equals("PUT") || request.method().equals("DELETE"))
                && path.matches("channels/\\d+/messages/\\d+/reactions/[^/]+/@me")) {
            if (rateLimitedReactions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                exchange.getResponseHeaders().add("Retry-After", "60");
                exchange.getResponseHeaders().add("X-RateLimit-Bucket", "fake-reactions");
                exchange.getResponseHeaders().add("X-RateLimit-Scope", "user");
                exchange.getResponseHeaders().add("X-RateLimit-Limit", "1");
                exchange.getResponseHeaders().add("X-RateLimit-Remaining", "0");
                exchange.getResponseHeaders().add("X-RateLimit-Reset-After", "60");
                respond(exchange, 429, DataObject.empty().put("message", "You are being rate limited.")
                        .put("retry_after", 60.0).put("global", false).toString());
                return;
            }
            if (refusedReactions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                respond(exchange, 403, DataObject.empty().put("message", "Missing Permissions").put("code", 50013).toString());
                return;
            }
            respond(exchange, 204, null);
        } else if (request.is("PUT", "applications/" + DiscordJson.APP_ID + "/commands")) {
            respond(exchange, 200, registered(DataArray.fromJson(request.body())).toString());
        } else if (request.method().equals("POST") && path.matches("interactions/\\d+/[^/]+/callback")) {
            java.util.concurrent.CountDownLatch refuse = refuseCallbacks;
            if (refuse != null) {
                try {
                    refuse.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                respond(exchange, 404, DataObject.empty().put("message", "Unknown interaction").put("code", 10062).toString());
                return;
            }
            respond(exchange, 204, null);
        } else if (request.method().equals("POST") && path.matches("webhooks/\\d+/[^/]+")) {
            if (refusedFollowUps.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                respond(exchange, 400, DataObject.empty().put("message", "Invalid Form Body").put("code", 50035).toString());
                return;
            }
            respond(exchange, 200, DiscordJson.createdMessage(nextId(), DiscordJson.TEXT_CHANNEL, request.json()).toString());
        } else if (request.method().equals("PATCH") && path.matches("webhooks/\\d+/[^/]+/messages/@original")) {
            respond(exchange, 200, DiscordJson.createdMessage(nextId(), DiscordJson.TEXT_CHANNEL, request.json()).toString());
        } else {
            respond(exchange, 404, DataObject.empty().put("message", "Unknown route " + path).put("code", 0).toString());
        }
    }

    /** The test guilds' channels and thread, and DM channels (ids starting with 4); Discord answers 404 for any other. */
    private static boolean knownChannel(String channelId) {
        return channelId.equals(DiscordJson.TEXT_CHANNEL) || channelId.equals(DiscordJson.THREAD)
                || channelId.startsWith("4");
    }

    /** The id of the DM channel between the bot and {@code userId}. */
    static String dmChannel(String userId) {
        return "4" + userId;
    }

    private String nextId() {
        return Long.toString(messageIds.incrementAndGet());
    }

    private static DataArray registered(DataArray commands) {
        DataArray out = DataArray.empty();
        for (int i = 0; i < commands.length(); i++) {
            out.add(commands.getObject(i).put("id", Integer.toString(6000 + i))
                    .put("application_id", DiscordJson.APP_ID).put("version", "1").put("nsfw", false));
        }
        return out;
    }

    private static void rateLimit(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Retry-After", "1");
        exchange.getResponseHeaders().add("Via", "1.1 google");
        exchange.getResponseHeaders().add("X-RateLimit-Bucket", "fake-bucket");
        exchange.getResponseHeaders().add("X-RateLimit-Scope", "user");
        exchange.getResponseHeaders().add("X-RateLimit-Limit", "5");
        exchange.getResponseHeaders().add("X-RateLimit-Remaining", "0");
        exchange.getResponseHeaders().add("X-RateLimit-Reset-After", "1");
        respond(exchange, 429, DataObject.empty().put("message", "You are being rate limited.")
                .put("retry_after", 0.5).put("global", false).toString());
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        if (body == null) {
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
            return;
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    List<Request> requests(Predicate<Request> filter) {
        return requests.stream().filter(filter).toList();
    }

    /** Message posts to one channel, in order. */
    List<Request> messagesTo(String channelId) {
        return requests(r -> r.is("POST", "channels/" + channelId + "/messages"));
    }

    List<Request> typingIn(String channelId) {
        return requests(r -> r.is("POST", "channels/" + channelId + "/typing"));
    }

    @Override
    public void close() {
        files.release();
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }

    /** One recorded request; the path is relative to {@code /api/v10/}; {@code arrivedNanos} is {@link System#nanoTime}. */
    record Request(String method, String path, String body, long arrivedNanos) {
        boolean is(String expectedMethod, String expectedPath) {
            return method.equals(expectedMethod) && path.equals(expectedPath);
        }

        DataObject json() {
            return DataObject.fromJson(body);
        }

        String content() {
            return json().getString("content", "");
        }
    }
}
