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
import java.util.function.IntFunction;

/**
 * An in-process Bot API server (JDK {@code HttpServer} on 127.0.0.1) with real long polling:
 * {@code getUpdates} is held until an update arrives or its {@code timeout} passes, an update is
 * confirmed by a later {@code getUpdates} with a higher {@code offset}, and {@code allowed_updates}
 * is honoured. It can go away and come back on the same port (pending updates survive, like on the
 * real server), fail the next {@code sendMessage} with a 429, a parse error, any status and
 * description, or a proxy's error page (and {@code getChatAdministrators} with a 429), deliver the next
 * {@code sendMessage} but cut its answer off, and forget its
 * confirmations (a server restored from an old state). Tests can hand out several updates in one
 * batch, or one without its {@code update_id}, and wait on the {@link PollLog} of every
 * {@code getUpdates} (e.g. {@link #awaitCaughtUp}) instead of waiting for time to pass.
 *
 * <p>Concurrency: {@code lock} guards the update log, the id counters, the confirmation mark, the
 * generation and the admin lists; {@code updatesChanged} wakes held {@code getUpdates} calls. The
 * call list, the {@link PollLog} and the {@link SendFaults} are thread-safe on their own.
 */
final class FakeBotApi implements AutoCloseable {

    static final String TOKEN = "424242:fake-secret-token";
    /** Bot API method names are case-insensitive (the SDK sends {@code getme}, {@code sendmessage}). */
    private static final Map<String, String> METHODS = new HashMap<>();

    static {
        for (String name : List.of("getMe", "deleteWebhook", "getUpdates", "setMyCommands", "sendMessage",
                "sendChatAction", "getChatAdministrators", "getChatMember", "editMessageText", "getFile",
                "setWebhook", "setMessageReaction", "sendMessageDraft")) {
            METHODS.put(name.toLowerCase(Locale.ROOT), name);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final java.util.concurrent.atomic.AtomicInteger refusedReactions = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger rateLimitedReactions = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger cutOffSendAnswers = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger goAwayBeforeSendAnswers = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean away;

    /** The next {@code count} {@code setMessageReaction} calls get a 429 with a {@code retry_after} of a minute. */
    void rateLimitNextReactions(int count) {
        rateLimitedReactions.set(count);
    }

    /** The next {@code count} {@code setMessageReaction} calls are refused 400 {@code REACTION_INVALID}. */
    void refuseNextReactions(int count) {
        refusedReactions.set(count);
    }
    private final Condition updatesChanged = lock.newCondition();
    private final List<Queued> updates = new ArrayList<>();              // every update ever pushed, in order
    private final SendFaults sendFaults = new SendFaults();
    private final SendFaults editFaults = new SendFaults();
    // "<chat id>:<message id>" -> the bot message's text now (sent, then edited), in the order sent
    private final Map<String, String> screen = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>());
    private final java.util.concurrent.atomic.AtomicInteger rateLimitedAdminLookups =
            new java.util.concurrent.atomic.AtomicInteger();
    private volatile int adminLookupRetryAfter;
    private final Map<Long, List<Tg.Person>> admins = new HashMap<>();   // chat id -> its administrators
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private volatile int[] draftRefusal;  // {status} every sendMessageDraft gets, or null
    // "<chat id>:<draft id>" -> what the draft shows now (a preview: not on the screen)
    private final Map<String, String> drafts = new java.util.concurrent.ConcurrentHashMap<>();
    private final dev.laneway.core.testing.FakeFiles files = new dev.laneway.core.testing.FakeFiles();
    private final Map<String, String> filePaths = new java.util.concurrent.ConcurrentHashMap<>();
    private final PollLog polls = new PollLog();
    private final java.util.concurrent.atomic.AtomicInteger pollsOpen = new java.util.concurrent.atomic.AtomicInteger();
    // client port -> the getUpdates held on that connection; ports whose client closed (told by the relay).
    // Both, and the counting in pollsOpen and mostPollsOpen, are guarded by heldPolls' monitor.
    private final Map<Integer, OpenPoll> heldPolls = new HashMap<>();
    private final Set<Integer> goneClients = new HashSet<>();
    private volatile ClientRelay relay;
    private final java.util.concurrent.atomic.AtomicInteger mostPollsOpen = new java.util.concurrent.atomic.AtomicInteger();
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

    /**
     * As {@link #start}, behind a {@link ClientRelay} that tells this server the moment a client
     * closes its connection: a {@code getUpdates} its client abandoned (cancelled) stops counting
     * as open then ({@link #mostPollsOpen}), not when the server's wait for updates ends.
     */
    static FakeBotApi startWatchingClients() throws IOException {
        FakeBotApi api = start();
        api.relay = ClientRelay.start(api.port, api::clientCame, api::clientGone);
        return api;
    }

    URI url() {
        ClientRelay through = relay;
        return URI.create("http://127.0.0.1:" + (through != null ? through.port() : port));
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
        return queue(id -> Tg.update(id, kind, message));
    }

    /**
     * Queues an update like {@link #push} but without its {@code update_id} (a broken server); returns
     * the id the server files it under, which confirms it like any other.
     */
    int pushWithoutId(String kind, ObjectNode message) {
        return queue(id -> {
            ObjectNode update = Tg.update(id, kind, message);
            update.remove("update_id");
            return update;
        });
    }

    private int queue(IntFunction<JsonNode> update) {
        lock.lock();
        try {
            int id = nextUpdateId++;
            updates.add(new Queued(id, update.apply(id)));
            updatesChanged.signalAll();
            return id;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code pushes} holding the server's lock, so a held {@code getUpdates} wakes only after
     * all of them and returns them in one batch.
     */
    void inOneBatch(Runnable pushes) {
        lock.lock();
        try {
            pushes.run();
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
        sendFaults.add(new SendFaults.Fault(chatId, false, 429, "Too Many Requests: retry after " + retryAfterSeconds,
                retryAfterSeconds));
    }

    /** The next {@code editMessageText} (to {@code chatId}) gets a 429 with {@code retry_after}. */
    void rateLimitNextEdit(String chatId, int retryAfterSeconds) {
        editFaults.add(new SendFaults.Fault(chatId, false, 429, "Too Many Requests: retry after " + retryAfterSeconds,
                retryAfterSeconds));
    }

    /**
     * The next {@code sendMessage} is delivered (it is on the screen and counts as sent), but its
     * connection closes before the answer, as when a network drops it on the way back.
     */
    void cutOffNextSendAnswer() {
        cutOffSendAnswers.incrementAndGet();
    }

    /** As {@link #cutOffNextSendAnswer}, the server going away ({@link #goAway}) before it answers. */
    void goAwayBeforeNextSendAnswer() {
        goAwayBeforeSendAnswers.incrementAndGet();
    }

    /** Whether the server has gone away ({@link #goAway}: its listener is closed) and not come back. */
    boolean away() {
        return away;
    }

    /** The next {@code sendMessage} (to any chat) gets HTTP {@code code} with a Bot API error saying {@code description}. */
    void failNextSend(int code, String description) {
        sendFaults.add(new SendFaults.Fault(null, false, code, description, 0));
    }

    /** The next {@code sendMessage} gets HTTP {@code code} with {@code page} as its body, not a Bot API answer (a proxy in between). */
    void failNextSendWithPage(int code, String page) {
        sendFaults.add(new SendFaults.Fault(null, false, code, null, 0, page));
    }

    /**
     * Every {@code sendMessageDraft} from now on gets HTTP {@code code} (400 or 404), as a Bot API server
     * older than drafts answers it; 0: drafts are taken again.
     */
    void refuseDrafts(int code) {
        draftRefusal = code == 0 ? null : new int[] {code};
    }

    /** What the draft {@code draftId} in {@code chatId} shows now (its last {@code sendMessageDraft}), or null. */
    String draft(long chatId, int draftId) {
        return drafts.get(chatId + ":" + draftId);
    }

    /** The next {@code times} {@code getChatAdministrators} calls get a 429 with {@code retry_after}. */
    void rateLimitAdminLookups(int times, int retryAfterSeconds) {
        adminLookupRetryAfter = retryAfterSeconds;
        rateLimitedAdminLookups.set(times);
    }

    /** The next {@code sendMessage} with a {@code parse_mode} gets "can't parse entities". */
    void rejectNextFormatted() {
        sendFaults.add(new SendFaults.Fault(null, true, 400,
                "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"", 0));
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
        away = true;
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
        away = false;
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

    /** The calls of any of {@code methods}, in the order they arrived. */
    List<Call> callsOf(String... methods) {
        List<String> wanted = List.of(methods);
        return calls.stream().filter(c -> wanted.contains(c.method())).toList();
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

    /**
     * The most {@code getUpdates} calls the server held open at one moment (two pollers: 2). A call
     * is open from its arrival until it is answered, or (behind the relay: {@link #startWatchingClients})
     * until its client closed the connection.
     */
    int mostPollsOpen() {
        return mostPollsOpen.get();
    }

    PollLog polls() {
        return polls;
    }

    /**
     * Waits until the bot polls with an offset past every update pushed so far: its handler has
     * taken or skipped each of them (the SDK polls again only after consuming a batch).
     */
    void awaitCaughtUp() {
        int last;
        lock.lock();
        try {
            last = nextUpdateId - 1;
        } finally {
            lock.unlock();
        }
        polls.awaitOffsetPast(last);
    }

    /** The highest update id a {@code getUpdates} offset has confirmed (0 when none). */
    long confirmedUpTo() {
        lock.lock();
        try {
            return confirmedUpTo;
        } finally {
            lock.unlock();
        }
    }

    /** In how many {@code getUpdates} answers the update with this id went out. */
    long timesServed(int updateId) {
        return calls("getUpdates").stream()
                .filter(call -> call.result().findValues("update_id").stream().anyMatch(id -> id.asInt() == updateId))
                .count();
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

    /** An update as queued: the id it is confirmed by, and its JSON as served. */
    private record Queued(int id, JsonNode json) {
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
            String filePrefix = "/file/bot" + TOKEN + "/";
            if (path.startsWith(filePrefix)) {
                files.handle(exchange, path.substring(filePrefix.length()));
                return;
            }
            String prefix = "/bot" + TOKEN + "/";
            if (!path.startsWith(prefix)) {
                respond(exchange, 401, BotApiAnswers.error(401, "Unauthorized", 0));
                return;
            }
            String requested = path.substring(prefix.length());
            String method = METHODS.getOrDefault(requested.toLowerCase(Locale.ROOT), requested);
            byte[] raw = exchange.getRequestBody().readAllBytes();
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            JsonNode body = raw.length == 0 ? Tg.JSON.createObjectNode()
                    : type != null && type.startsWith("multipart/form-data") ? formFields(type, raw) : Tg.JSON.readTree(raw);
            if (method.equals("getUpdates")) {
                polls.arrived(body);
                OpenPoll open = pollOpened(exchange.getRemoteAddress().getPort());
                ArrayNode result;
                try {
                    result = getUpdates(body, myGeneration);
                } finally {
                    open.end();
                }
                if (result == null) {
                    return; // the server went away while holding the call: cut it off
                }
                calls.add(new Call(method, body, Instant.now(), result));
                respond(exchange, 200, BotApiAnswers.ok(result));
                return;
            }
            if (method.equals("getChatAdministrators")
                    && rateLimitedAdminLookups.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                calls.add(new Call(method, body, Instant.now(), null));
                respond(exchange, 429, BotApiAnswers.error(429, "Too Many Requests: retry after "
                        + adminLookupRetryAfter, adminLookupRetryAfter));
                return;
            }
            if (method.equals("setMessageReaction") && rateLimitedReactions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                calls.add(new Call(method, body, Instant.now(), null));
                respond(exchange, 429, BotApiAnswers.error(429, "Too Many Requests: retry after 60", 60));
                return;
            }
            if (method.equals("setMessageReaction") && refusedReactions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                calls.add(new Call(method, body, Instant.now(), null));
                respond(exchange, 400, BotApiAnswers.error(400, "Bad Request: REACTION_INVALID", 0));
                return;
            }
            int[] refusal = draftRefusal;
            if (method.equals("sendMessageDraft") && refusal != null) {
                calls.add(new Call(method, body, Instant.now(), null));
                respond(exchange, refusal[0], BotApiAnswers.error(refusal[0], refusal[0] == 404 ? "Not Found"
                        : "Bad Request: method sendMessageDraft is not supported", 0));
                return;
            }
            SendFaults.Fault fault = method.equals("sendMessage") ? sendFaults.take(body)
                    : method.equals("editMessageText") ? editFaults.take(body) : null;
            if (fault != null) {
                calls.add(new Call(method, body, Instant.now(), null));
                if (fault.page() != null) {
                    respondRaw(exchange, fault.code(), fault.page());
                } else {
                    respond(exchange, fault.code(), BotApiAnswers.error(fault.code(), fault.description(),
                            fault.retryAfter()));
                }
                return;
            }
            JsonNode result = answer(method, body);
            calls.add(new Call(method, body, Instant.now(), result));
            if (method.equals("sendMessage") && cutOffSendAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return; // delivered, but the connection closes before the answer: no response was begun
            }
            if (method.equals("sendMessage") && goAwayBeforeSendAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                goAway();   // delivered, and the server stops before it answers: the connection is cut
                return;
            }
            respond(exchange, 200, BotApiAnswers.ok(result));
        }
    }

    /** Counts a {@code getUpdates} as open, unless its client already closed the connection. */
    private OpenPoll pollOpened(int clientPort) {
        synchronized (heldPolls) {
            OpenPoll open = new OpenPoll(clientPort, !goneClients.contains(clientPort));
            if (open.open) {
                heldPolls.put(clientPort, open);
                mostPollsOpen.accumulateAndGet(pollsOpen.incrementAndGet(), Math::max);
            }
            return open;
        }
    }

    /** The relay saw the client on {@code clientPort} close its connection: its held poll is over. */
    private void clientGone(int clientPort) {
        synchronized (heldPolls) {
            goneClients.add(clientPort);
            OpenPoll held = heldPolls.get(clientPort);
            if (held != null) {
                held.end();
            }
        }
    }

    /** A new connection from {@code clientPort} (a port may be used again). */
    private void clientCame(int clientPort) {
        synchronized (heldPolls) {
            goneClients.remove(clientPort);
        }
    }

    /** One {@code getUpdates}, counted in {@code pollsOpen} until it ends (answered, or its client gone), once. */
    private final class OpenPoll {
        private final int clientPort;
        private boolean open;                 // guarded by heldPolls

        OpenPoll(int clientPort, boolean open) {
            this.clientPort = clientPort;
            this.open = open;
        }

        void end() {
            synchronized (heldPolls) {
                if (open) {
                    open = false;
                    pollsOpen.decrementAndGet();
                    heldPolls.remove(clientPort, this);
                }
            }
        }
    }

    /** A multipart form's text fields (what the SDK sends {@code setWebhook} as), by name. */
    private static ObjectNode formFields(String contentType, byte[] raw) {
        String boundary = "--" + contentType.substring(contentType.indexOf("boundary=") + "boundary=".length())
                .replace("\"", "");
        ObjectNode fields = Tg.JSON.createObjectNode();
        for (String part : new String(raw, java.nio.charset.StandardCharsets.UTF_8).split(java.util.regex.Pattern.quote(boundary))) {
            int nameAt = part.indexOf("name=\"");
            int bodyAt = part.indexOf("\r\n\r\n");
            if (nameAt < 0 || bodyAt < 0) {
                continue;
            }
            String name = part.substring(nameAt + 6, part.indexOf('"', nameAt + 6));
            String value = part.substring(bodyAt + 4);
            fields.put(name, value.endsWith("\r\n") ? value.substring(0, value.length() - 2) : value);
        }
        return fields;
    }

    private JsonNode answer(String method, JsonNode body) {
        return switch (method) {
            case "getMe" -> BotApiAnswers.me();
            case "sendMessage" -> sentMessage(body);
            case "editMessageText" -> editedMessage(body);
            case "sendMessageDraft" -> {
                if (body.path("draft_id").asInt() == 0 || body.path("chat_id").asLong() < 0) {
                    throw new IllegalStateException("sendMessageDraft needs a private chat and a non-zero draft_id: " + body);
                }
                drafts.put(body.path("chat_id").asLong() + ":" + body.path("draft_id").asInt(), visibleOf(body));
                yield Tg.JSON.getNodeFactory().booleanNode(true);
            }
            case "getChatAdministrators" -> administrators(body.path("chat_id").asLong());
            case "getFile" -> file(body.path("file_id").asText());
            default -> Tg.JSON.getNodeFactory().booleanNode(true); // deleteWebhook, setWebhook, setMyCommands, sendChatAction
        };
    }

    /** {@code getFile}: the path the file was registered under ({@link #file(String, String)}), else none. */
    private JsonNode file(String fileId) {
        ObjectNode file = Tg.JSON.createObjectNode().put("file_id", fileId).put("file_unique_id", "u-" + fileId);
        String path = filePaths.get(fileId);
        if (path != null) {
            file.put("file_path", path);
        }
        return file;
    }

    /** Registers {@code fileId} as served at {@code /file/bot<token>/<path>}; answer it through {@link #files()}. */
    FakeBotApi file(String fileId, String path) {
        filePaths.put(fileId, path);
        return this;
    }

    /** The files this server serves under {@code /file/bot<token>/} (docs/behaviour.md §15.1). */
    dev.laneway.core.testing.FakeFiles files() {
        return files;
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
                for (Queued update : updates) {
                    if (update.id() > confirmedUpTo && ready.size() < limit
                            && (allowed.isEmpty() || allowed.stream().anyMatch(update.json()::has))) {
                        ready.add(update.json());
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

    private ObjectNode sentMessage(JsonNode body) {
        long chatId = body.path("chat_id").asLong();
        int id;
        lock.lock();
        try {
            id = nextBotMessageId++;
        } finally {
            lock.unlock();
        }
        screen.put(chatId + ":" + id, visibleOf(body));
        return BotApiAnswers.sentMessage(chatId, id, body.path("text").asText());
    }

    private JsonNode editedMessage(JsonNode body) {
        String key = body.path("chat_id").asText() + ":" + body.path("message_id").asInt();
        String text = visibleOf(body);
        if (screen.replace(key, text) == null) {
            throw new IllegalStateException("editMessageText of an unknown message " + key);
        }
        return BotApiAnswers.sentMessage(body.path("chat_id").asLong(), body.path("message_id").asInt(),
                body.path("text").asText());
    }

    private static String visibleOf(JsonNode body) {
        return new Sent(0, "", body.path("text").asText(),
                body.hasNonNull("parse_mode") ? body.get("parse_mode").asText() : null, null, null).visible();
    }

    /** What the bot's messages in {@code chatId} show now (after every edit), as the user sees them, in order. */
    List<String> screen(long chatId) {
        String prefix = chatId + ":";
        synchronized (screen) {
            return screen.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).map(Map.Entry::getValue)
                    .toList();
        }
    }

    private ArrayNode administrators(long chatId) {
        List<Tg.Person> people;
        lock.lock();
        try {
            people = admins.getOrDefault(chatId, List.of());
        } finally {
            lock.unlock();
        }
        return BotApiAnswers.administrators(people);
    }

    private static void respond(HttpExchange exchange, int status, JsonNode json) throws IOException {
        byte[] bytes = Tg.JSON.writeValueAsBytes(json);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void respondRaw(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        ClientRelay through = relay;
        if (through != null) {
            through.close();
        }
        files.release();
        goAway();
        handlers.shutdownNow();
    }
}
