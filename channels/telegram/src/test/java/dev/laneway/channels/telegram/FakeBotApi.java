package dev.laneway.channels.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An in-process Bot API server (JDK {@code HttpServer} on 127.0.0.1) with real long polling:
 * {@code getUpdates} is held until an update arrives or its {@code timeout} passes, an update is
 * confirmed by a later {@code getUpdates} with a higher {@code offset}, and {@code allowed_updates}
 * is honoured. It can go away and come back on the same port (pending updates survive, like on the
 * real server), fail the next {@code sendMessage} with a 429 or a parse error, and forget its
 * confirmations (a server restored from an old state).
 *
 * <p>Concurrency: {@code lock} guards the update log, the faults and the admin lists;
 * {@code updatesChanged} wakes held {@code getUpdates} calls.
 */
final class FakeBotApi implements AutoCloseable {

    static final String TOKEN = "424242:fake-secret-token";
    /** Bot API method names are case-insensitive (the SDK sends {@code getme}, {@code sendmessage}). */
    private static final Map<String, String> METHODS = new HashMap<>();

    static {
        for (String name : List.of("getMe", "deleteWebhook", "getUpdates", "setMyCommands", "sendMessage",
                "sendChatAction", "getChatAdministrators", "getChatMember")) {
            METHODS.put(name.toLowerCase(Locale.ROOT), name);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition updatesChanged = lock.newCondition();
    private final List<ObjectNode> updates = new ArrayList<>();          // every update ever pushed, in order
    private final ArrayDeque<Fault> sendFaults = new ArrayDeque<>();     // next sendMessage failures
    private final Map<Long, List<Tg.Person>> admins = new HashMap<>();   // chat id -> its administrators
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<JsonNode> polls = new CopyOnWriteArrayList<>();  // getUpdates bodies, as they arrive
    private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
    private int nextUpdateId = 5000;
    private int nextMessageId = 100;
    private int nextBotMessageId = 9000;
    private long confirmedUpTo;
    private int generation;
    private volatile HttpServer server;
    private int port;

    static FakeBotApi start() throws IOException {
        FakeBotApi api = new FakeBotApi();
        api.listen(0);
        return api;
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    // ---------------------------------------------------------------- what users do

    int nextMessageId() {
        lock.lock();
        try {
            return nextMessageId++;
        } finally {
            lock.unlock();
        }
    }

    /** A DM from {@code from}; returns its message id. */
    int dm(Tg.Person from, String text) {
        int id = nextMessageId();
        push("message", Tg.message(id, Tg.privateChat(from), from, text));
        return id;
    }

    /** A message in the ordinary supergroup {@link Tg#GROUP}; returns its message id. */
    int group(Tg.Person from, String text) {
        int id = nextMessageId();
        push("message", Tg.message(id, Tg.groupChat(Tg.GROUP, "Team", false), from, text));
        return id;
    }

    /** Queues an update of {@code kind} ({@code message}, {@code edited_message}, ...); returns its id. */
    int push(String kind, ObjectNode message) {
        lock.lock();
        try {
            int id = nextUpdateId++;
            updates.add(Tg.update(id, kind, message));
            updatesChanged.signalAll();
            return id;
        } finally {
            lock.unlock();
        }
    }

    void setAdmins(long chatId, Tg.Person... people) {
        lock.lock();
        try {
            admins.put(chatId, List.of(people));
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- faults

    /** The next {@code sendMessage} (to {@code chatId}, or any chat when null) gets a 429. */
    void rateLimitNextSend(String chatId, int retryAfterSeconds) {
        addFault(new Fault(chatId, false, 429, "Too Many Requests: retry after " + retryAfterSeconds, retryAfterSeconds));
    }

    /** The next {@code sendMessage} with a {@code parse_mode} gets "can't parse entities". */
    void rejectNextFormatted() {
        addFault(new Fault(null, true, 400,
                "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"", 0));
    }

    private void addFault(Fault fault) {
        lock.lock();
        try {
            sendFaults.addLast(fault);
        } finally {
            lock.unlock();
        }
    }

    /** The server stops: the listener closes and held {@code getUpdates} calls are cut off. */
    void goAway() {
        lock.lock();
        try {
            generation++;
            updatesChanged.signalAll();
        } finally {
            lock.unlock();
        }
        stopServer();
    }

    private void stopServer() {
        HttpServer running = server;
        server = null;
        if (running != null) {
            running.stop(0);
        }
    }

    /** The server is back on the same port, with the updates it had. */
    void comeBack() throws IOException {
        listen(port);
    }

    /** Forgets which updates were confirmed, so the next poll gets them all again. */
    void forgetConfirmations() {
        lock.lock();
        try {
            confirmedUpTo = 0;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- what the bot did

    List<Call> calls(String method) {
        return calls.stream().filter(c -> c.method().equals(method)).toList();
    }

    /** Every successful {@code sendMessage}, in order. */
    List<Sent> sent() {
        return calls("sendMessage").stream().filter(Call::succeeded).map(Sent::of).toList();
    }

    List<Sent> sentTo(long chatId) {
        return sent().stream().filter(s -> s.chatId().equals(Long.toString(chatId))).toList();
    }

    List<String> textsTo(long chatId) {
        return sentTo(chatId).stream().map(Sent::text).toList();
    }

    /** Every {@code getUpdates} request body, recorded when it arrives (before it is held). */
    List<JsonNode> polls() {
        return List.copyOf(polls);
    }

    long typingCount(long chatId) {
        return calls("sendChatAction").stream()
                .filter(c -> c.body().path("chat_id").asText().equals(Long.toString(chatId))).count();
    }

    /** One API call as the server saw it; {@code succeeded} is false for an injected failure. */
    record Call(String method, JsonNode body, Instant at, JsonNode result) {
        boolean succeeded() {
            return result != null;
        }
    }

    /** One delivered message. */
    record Sent(int messageId, String chatId, String text, String parseMode, Integer replyTo, Integer threadId) {
        static Sent of(Call call) {
            JsonNode b = call.body();
            JsonNode reply = b.path("reply_parameters").path("message_id");
            return new Sent(call.result().get("message_id").asInt(), b.path("chat_id").asText(), b.path("text").asText(),
                    b.hasNonNull("parse_mode") ? b.get("parse_mode").asText() : null,
                    reply.isMissingNode() ? null : reply.asInt(),
                    b.hasNonNull("message_thread_id") ? b.get("message_thread_id").asInt() : null);
        }

        /** The text as the user sees it: tags removed and entities decoded when it was sent as HTML. */
        String visible() {
            if (parseMode == null) {
                return text;
            }
            return text.replaceAll("<[^>]+>", "").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                    .replace("&amp;", "&");
        }
    }

    private record Fault(String chatId, boolean onlyFormatted, int code, String description, int retryAfter) {
    }

    // ---------------------------------------------------------------- HTTP

    private void listen(int onPort) throws IOException {
        HttpServer created = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort), 0);
        created.setExecutor(handlers);
        int myGeneration;
        lock.lock();
        try {
            myGeneration = generation;
        } finally {
            lock.unlock();
        }
        created.createContext("/", exchange -> handle(exchange, myGeneration));
        created.start();
        server = created;
        port = created.getAddress().getPort();
    }

    private void handle(HttpExchange exchange, int myGeneration) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String prefix = "/bot" + TOKEN + "/";
            if (!path.startsWith(prefix)) {
                respond(exchange, 401, error(401, "Unauthorized", 0));
                return;
            }
            String requested = path.substring(prefix.length());
            String method = METHODS.getOrDefault(requested.toLowerCase(Locale.ROOT), requested);
            byte[] raw = exchange.getRequestBody().readAllBytes();
            JsonNode body = raw.length == 0 ? Tg.JSON.createObjectNode() : Tg.JSON.readTree(raw);
            if (method.equals("getUpdates")) {
                polls.add(body);
                ArrayNode result = getUpdates(body, myGeneration);
                if (result == null) {
                    return; // the server went away while holding the call: cut it off
                }
                calls.add(new Call(method, body, Instant.now(), result));
                respond(exchange, 200, ok(result));
                return;
            }
            Fault fault = method.equals("sendMessage") ? takeFault(body) : null;
            if (fault != null) {
                calls.add(new Call(method, body, Instant.now(), null));
                respond(exchange, fault.code(), error(fault.code(), fault.description(), fault.retryAfter()));
                return;
            }
            JsonNode result = answer(method, body);
            calls.add(new Call(method, body, Instant.now(), result));
            respond(exchange, 200, ok(result));
        }
    }

    private JsonNode answer(String method, JsonNode body) {
        return switch (method) {
            case "getMe" -> Tg.BOT.json().put("can_join_groups", true).put("can_read_all_group_messages", false)
                    .put("supports_inline_queries", false);
            case "sendMessage" -> sentMessage(body);
            case "getChatAdministrators" -> administrators(body.path("chat_id").asLong());
            default -> Tg.JSON.getNodeFactory().booleanNode(true); // deleteWebhook, setMyCommands, sendChatAction
        };
    }

    private ArrayNode getUpdates(JsonNode body, int myGeneration) {
        long offset = body.path("offset").asLong(0);
        int limit = body.path("limit").asInt(100);
        long timeoutNanos = TimeUnit.SECONDS.toNanos(body.path("timeout").asLong(0));
        Set<String> allowed = new HashSet<>();
        body.path("allowed_updates").forEach(kind -> allowed.add(kind.asText()));
        lock.lock();
        try {
            if (offset > 0) {
                confirmedUpTo = Math.max(confirmedUpTo, offset - 1);
            }
            while (true) {
                if (generation != myGeneration) {
                    return null;
                }
                ArrayNode ready = Tg.JSON.createArrayNode();
                for (ObjectNode update : updates) {
                    if (update.get("update_id").asLong() > confirmedUpTo && ready.size() < limit
                            && (allowed.isEmpty() || allowed.stream().anyMatch(update::has))) {
                        ready.add(update);
                    }
                }
                if (!ready.isEmpty() || timeoutNanos <= 0) {
                    return ready;
                }
                timeoutNanos = updatesChanged.awaitNanos(timeoutNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Tg.JSON.createArrayNode();
        } finally {
            lock.unlock();
        }
    }

    private Fault takeFault(JsonNode body) {
        lock.lock();
        try {
            Fault next = sendFaults.peekFirst();
            if (next == null || (next.chatId() != null && !next.chatId().equals(body.path("chat_id").asText()))
                    || (next.onlyFormatted() && !body.hasNonNull("parse_mode"))) {
                return null;
            }
            return sendFaults.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    private ObjectNode sentMessage(JsonNode body) {
        long chatId = body.path("chat_id").asLong();
        int id;
        lock.lock();
        try {
            id = nextBotMessageId++;
        } finally {
            lock.unlock();
        }
        ObjectNode chat = chatId < 0 ? Tg.groupChat(chatId, "Team", false)
                : Tg.privateChat(new Tg.Person(chatId, "User", null, false));
        ObjectNode message = Tg.message(id, chat, Tg.BOT, null);
        message.put("text", body.path("text").asText());
        return message;
    }

    private ArrayNode administrators(long chatId) {
        List<Tg.Person> people;
        lock.lock();
        try {
            people = admins.getOrDefault(chatId, List.of());
        } finally {
            lock.unlock();
        }
        ArrayNode result = Tg.JSON.createArrayNode();
        for (int i = 0; i < people.size(); i++) {
            ObjectNode member = result.addObject();
            member.put("status", i == 0 ? "creator" : "administrator").put("is_anonymous", false);
            member.set("user", people.get(i).json());
            if (i > 0) {
                member.put("can_be_edited", false).put("can_manage_chat", true).put("can_delete_messages", true)
                        .put("can_manage_video_chats", true).put("can_restrict_members", true)
                        .put("can_promote_members", false).put("can_change_info", true).put("can_invite_users", true)
                        .put("can_post_stories", false).put("can_edit_stories", false).put("can_delete_stories", false);
            }
        }
        return result;
    }

    private static ObjectNode ok(JsonNode result) {
        ObjectNode response = Tg.JSON.createObjectNode();
        response.put("ok", true);
        response.set("result", result);
        return response;
    }

    private static ObjectNode error(int code, String description, int retryAfter) {
        ObjectNode response = Tg.JSON.createObjectNode();
        response.put("ok", false).put("error_code", code).put("description", description);
        if (retryAfter > 0) {
            response.putObject("parameters").put("retry_after", retryAfter);
        }
        return response;
    }

    private static void respond(HttpExchange exchange, int status, JsonNode json) throws IOException {
        byte[] bytes = Tg.JSON.writeValueAsBytes(json);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        goAway();
        handlers.shutdownNow();
    }
}
