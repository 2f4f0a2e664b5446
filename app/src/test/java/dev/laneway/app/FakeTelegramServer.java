package dev.laneway.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A small Telegram Bot API server on 127.0.0.1 for end-to-end tests of the real CLI: the
 * telegrambots SDK inside the child process talks to it as to {@code api.telegram.org}
 * ({@code channels.telegram.apiUrl}, docs/configuration.md §10). It answers {@code getMe} with the
 * bot, holds {@code getUpdates} until an update is queued or the call's {@code timeout} passes (real
 * long polling: the SDK polls again at once), treats an {@code offset} as the confirmation of every
 * update below it, records each {@code sendMessage} with the time it arrived, and says {@code true}
 * to everything else ({@code deleteWebhook}, {@code setWebhook}, {@code setMyCommands}, {@code sendChatAction}).
 * Updates are shaped as the real server shapes them: {@code is_bot} on every user, dates in seconds,
 * forum topic messages with {@code message_thread_id} replying to the topic's creation message.
 *
 * <p>Concurrency: {@code lock} guards every field below it; {@code changed} wakes held
 * {@code getUpdates} calls and tests waiting for a poll or a send.
 */
final class FakeTelegramServer implements AutoCloseable {

    static final String TOKEN = "424242:fake-telegram-token";
    static final long BOT_ID = 7000;
    static final String BOT_USERNAME = "LanewayBot";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<JsonNode> updates = new ArrayList<>();  // every update queued, in order
    private final List<Sent> sent = new ArrayList<>();
    private final List<Edit> edits = new ArrayList<>();
    private final java.util.Map<String, byte[]> files = new java.util.concurrent.ConcurrentHashMap<>();
    private int nextUpdateId = 5000;
    private int nextMessageId = 100;
    private int nextBotMessageId = 9000;
    private long confirmedUpTo;   // the highest update id an offset confirmed
    private int polls;            // getUpdates calls that arrived
    private boolean closed;

    FakeTelegramServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    // ---------------------------------------------------------------- what users do

    /** A person on Telegram; a DM's chat id is the person's id. */
    record Person(long id, String name) {
        ObjectNode json() {
            ObjectNode user = JSON.createObjectNode();
            return user.put("id", id).put("is_bot", false).put("first_name", name).put("username", name.toLowerCase(Locale.ROOT));
        }
    }

    /** A forum supergroup: each topic is a thread of its own. */
    record Forum(long id, String title) {
        ObjectNode json() {
            ObjectNode chat = JSON.createObjectNode();
            return chat.put("id", id).put("type", "supergroup").put("title", title).put("is_forum", true);
        }
    }

    /** A plain message (no mention, no reply to the bot) from {@code from} in topic {@code topic}. */
    void inTopic(Forum forum, int topic, Person from, String text) {
        lock.lock();
        try {
            ObjectNode message = message(forum.json(), from, text);
            message.put("message_thread_id", topic).put("is_topic_message", true);
            // as in real forums, a topic's message replies to the topic's creation message
            ObjectNode created = JSON.createObjectNode();
            created.put("message_id", topic).put("date", Instant.now().getEpochSecond());
            created.set("from", from.json());
            created.set("chat", forum.json());
            created.putObject("forum_topic_created").put("name", "Topic " + topic).put("icon_color", 7322096);
            message.set("reply_to_message", created);
            queue(message);
        } finally {
            lock.unlock();
        }
    }

    /** A direct message from {@code from}. */
    void dm(Person from, String text) {
        lock.lock();
        try {
            ObjectNode chat = JSON.createObjectNode();
            chat.put("id", from.id()).put("type", "private").put("first_name", from.name());
            queue(message(chat, from, text));
        } finally {
            lock.unlock();
        }
    }

    /**
     * A direct message from {@code from} as the body of a webhook request (Telegram posting one update
     * to a bot in webhook mode, docs/behaviour.md §17): a new update id, not queued for {@code getUpdates}.
     */
    String dmUpdate(Person from, String text) {
        lock.lock();
        try {
            ObjectNode chat = JSON.createObjectNode();
            chat.put("id", from.id()).put("type", "private").put("first_name", from.name());
            ObjectNode update = JSON.createObjectNode();
            update.put("update_id", nextUpdateId++);
            update.set("message", message(chat, from, text));
            return update.toString();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A direct message carrying a file (docs/behaviour.md §15.1): {@code field} is {@code document},
     * {@code voice} or {@code photo}; the server answers {@code getFile} for it and serves
     * {@code content} at {@code /file/bot<token>/<fileId>}.
     */
    void dmFile(Person from, String field, String fileId, String name, String type, byte[] content, String caption) {
        lock.lock();
        try {
            files.put(fileId, content);
            ObjectNode chat = JSON.createObjectNode();
            chat.put("id", from.id()).put("type", "private").put("first_name", from.name());
            ObjectNode message = message(chat, from, null);
            message.remove("text");
            ObjectNode file = JSON.createObjectNode().put("file_id", fileId).put("file_unique_id", "u-" + fileId)
                    .put("file_size", content.length);
            if (field.equals("photo")) {
                message.putArray("photo").add(file.put("width", 640).put("height", 480));
            } else {
                message.set(field, file.put("mime_type", type).put("file_name", name).put("duration", 2));
            }
            if (caption != null) {
                message.put("caption", caption);
            }
            queue(message);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code pushes} holding the lock, so a held {@code getUpdates} wakes only after all of them
     * and hands them to the bot in one batch (a flood, as the bot sees one).
     */
    void inOneBatch(Runnable pushes) {
        lock.lock();
        try {
            pushes.run();
        } finally {
            lock.unlock();
        }
    }

    private ObjectNode message(ObjectNode chat, Person from, String text) {
        ObjectNode message = JSON.createObjectNode();
        message.put("message_id", nextMessageId++).put("date", Instant.now().getEpochSecond());
        message.set("from", from.json());
        message.set("chat", chat);
        message.put("text", text);
        return message;
    }

    private void queue(ObjectNode message) { // inside the lock
        ObjectNode update = JSON.createObjectNode();
        update.put("update_id", nextUpdateId++);
        update.set("message", message);
        updates.add(update);
        changed.signalAll();
    }

    // ---------------------------------------------------------------- what the bot did

    /** One {@code sendMessage} as it arrived. */
    record Sent(String chatId, Integer threadId, String text, Instant at) {
    }

    /** One {@code editMessageText} as it arrived. */
    record Edit(String chatId, int messageId, String text, Instant at) {
    }

    /** Every {@code editMessageText} so far, in the order they arrived. */
    List<Edit> edits() {
        lock.lock();
        try {
            return List.copyOf(edits);
        } finally {
            lock.unlock();
        }
    }

    /** Waits until {@code count} edits satisfy {@code which}; returns every edit so far. */
    List<Edit> awaitEdits(int count, java.util.function.Predicate<Edit> which, Duration timeout)
            throws InterruptedException {
        await(timeout, count + " matching editMessageText calls", () -> edits.stream().filter(which).count() >= count);
        return edits();
    }

    /** Every {@code sendMessage} so far, in the order they arrived. */
    List<Sent> sent() {
        lock.lock();
        try {
            return List.copyOf(sent);
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the bot has polled at least once (it is up and listening). */
    void awaitFirstPoll(Duration timeout) throws InterruptedException {
        await(timeout, "a first getUpdates", () -> polls > 0);
    }

    /**
     * Waits until the bot polls with an offset past every update queued so far: the SDK polls again
     * only after the gateway has taken the whole batch (recorded each message), so every message
     * queued so far has been accepted.
     */
    void awaitCaughtUp(Duration timeout) throws InterruptedException {
        long last;
        lock.lock();
        try {
            last = nextUpdateId - 1L;
        } finally {
            lock.unlock();
        }
        await(timeout, "the bot to confirm update " + last, () -> confirmedUpTo >= last);
    }

    /** Waits until {@code count} sent messages satisfy {@code which}; returns every send so far. */
    List<Sent> awaitSent(int count, java.util.function.Predicate<Sent> which, Duration timeout)
            throws InterruptedException {
        await(timeout, count + " matching sendMessage calls", () -> sent.stream().filter(which).count() >= count);
        return sent();
    }

    private void await(Duration timeout, String what, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (!condition.getAsBoolean()) {
                if (left <= 0) {
                    throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; sent so far: " + sent);
                }
                left = changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- HTTP

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String filePrefix = "/file/bot" + TOKEN + "/";
            if (path.startsWith(filePrefix)) {
                byte[] content = files.get(path.substring(filePrefix.length()));
                exchange.sendResponseHeaders(content == null ? 404 : 200, content == null ? -1 : content.length);
                if (content != null) {
                    exchange.getResponseBody().write(content);
                }
                return;
            }
            String prefix = "/bot" + TOKEN + "/";
            if (!path.startsWith(prefix)) {
                respond(exchange, 401, JSON.createObjectNode().put("ok", false).put("error_code", 401)
                        .put("description", "Unauthorized"));
                return;
            }
            String method = path.substring(prefix.length()).toLowerCase(Locale.ROOT); // the SDK sends "getme"
            byte[] raw = exchange.getRequestBody().readAllBytes();
            // setWebhook comes as multipart/form-data (it may carry a certificate): only its "true" matters here
            JsonNode body = raw.length == 0 || method.equals("setwebhook") ? JSON.createObjectNode() : JSON.readTree(raw);
            JsonNode result = switch (method) {
                case "getme" -> me();
                case "getupdates" -> getUpdates(body);
                case "sendmessage" -> sendMessage(body);
                case "editmessagetext" -> editMessageText(body);
                case "getfile" -> JSON.createObjectNode().put("file_id", body.path("file_id").asText())
                        .put("file_unique_id", "u").put("file_path", body.path("file_id").asText());
                default -> JSON.getNodeFactory().booleanNode(true);
            };
            ObjectNode answer = JSON.createObjectNode().put("ok", true);
            answer.set("result", result);
            respond(exchange, 200, answer);
        }
    }

    private static ObjectNode me() {
        return JSON.createObjectNode().put("id", BOT_ID).put("is_bot", true).put("first_name", "Laneway")
                .put("username", BOT_USERNAME).put("can_join_groups", true).put("can_read_all_group_messages", true)
                .put("supports_inline_queries", false);
    }

    private ArrayNode getUpdates(JsonNode body) {
        long offset = body.path("offset").asLong(0);
        int limit = body.path("limit").asInt(100);
        long left = TimeUnit.SECONDS.toNanos(body.path("timeout").asLong(0));
        lock.lock();
        try {
            polls++;
            if (offset > 0) {
                confirmedUpTo = Math.max(confirmedUpTo, offset - 1);
            }
            changed.signalAll();
            while (true) {
                ArrayNode ready = JSON.createArrayNode();
                for (JsonNode update : updates) {
                    if (update.get("update_id").asLong() > confirmedUpTo && ready.size() < limit) {
                        ready.add(update);
                    }
                }
                if (!ready.isEmpty() || left <= 0 || closed) {
                    return ready;
                }
                left = changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return JSON.createArrayNode();
        } finally {
            lock.unlock();
        }
    }

    private ObjectNode sendMessage(JsonNode body) {
        String chatId = body.path("chat_id").asText();
        Integer threadId = body.hasNonNull("message_thread_id") ? body.get("message_thread_id").asInt() : null;
        String text = body.path("text").asText();
        ObjectNode message = JSON.createObjectNode();
        lock.lock();
        try {
            sent.add(new Sent(chatId, threadId, text, Instant.now()));
            message.put("message_id", nextBotMessageId++);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        message.put("date", Instant.now().getEpochSecond());
        ObjectNode bot = JSON.createObjectNode().put("id", BOT_ID).put("is_bot", true).put("first_name", "Laneway")
                .put("username", BOT_USERNAME);
        message.set("from", bot);
        ObjectNode chat = message.putObject("chat").put("id", Long.parseLong(chatId));
        chat.put("type", chatId.startsWith("-") ? "supergroup" : "private");
        if (threadId != null) {
            message.put("message_thread_id", threadId).put("is_topic_message", true);
        }
        message.put("text", text);
        return message;
    }

    private ObjectNode editMessageText(JsonNode body) {
        String chatId = body.path("chat_id").asText();
        int messageId = body.path("message_id").asInt();
        String text = body.path("text").asText();
        lock.lock();
        try {
            edits.add(new Edit(chatId, messageId, text, Instant.now()));
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        ObjectNode message = JSON.createObjectNode().put("message_id", messageId)
                .put("date", Instant.now().getEpochSecond());
        message.set("from", JSON.createObjectNode().put("id", BOT_ID).put("is_bot", true).put("first_name", "Laneway")
                .put("username", BOT_USERNAME));
        message.putObject("chat").put("id", Long.parseLong(chatId)).put("type",
                chatId.startsWith("-") ? "supergroup" : "private");
        message.put("text", text);
        return message;
    }

    private static void respond(HttpExchange exchange, int status, JsonNode json) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(json);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        server.stop(0);
        handlers.shutdownNow();
    }
}
