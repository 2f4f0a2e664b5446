package dev.laneway.core.testing;

import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.Streaming;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A channel that records what the gateway sends; thread-safe, for unit and integration tests. It
 * can act like a platform channel at boot: fail its first starts ({@link #failStarts}), refuse to
 * send before its start has completed ({@link #sendsOnlyOnceStarted}, as Slack and Discord do), do
 * something while its start is under way ({@link #duringStart}), fail every send
 * ({@link #failSends}) or the next few ({@link #failNextSends}, with the platform failures the
 * outbox acts on), fail typing ({@link #failNextTyping}), and pace its chats ({@link #pacing}).
 */
public final class FakeChannel implements ChannelAdapter {

    private final String name;
    private final ChannelCapabilities capabilities;
    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final List<Route> typing = new CopyOnWriteArrayList<>();
    private final List<String> progress = new CopyOnWriteArrayList<>();
    private volatile InboundSink sink;
    private final AtomicInteger startFailures = new AtomicInteger();
    private final AtomicInteger startAttempts = new AtomicInteger();
    private volatile boolean started;
    private volatile boolean receivingStopped;
    private volatile boolean sendsOnlyOnceStarted;
    private volatile boolean failSends;
    private final Queue<Exception> sendFailures = new ConcurrentLinkedQueue<>();
    private final Queue<Exception> typingFailures = new ConcurrentLinkedQueue<>();
    private final List<String> attempts = new CopyOnWriteArrayList<>();
    private volatile Function<Route, Duration> pacing = route -> Duration.ZERO;
    private volatile java.util.function.Consumer<String> onSend = text -> { };
    private volatile Runnable duringStart = () -> { };
    private volatile Runnable duringTyping = () -> { };
    private volatile Streaming streaming = Streaming.OFF;
    private final AtomicInteger nextMessageId = new AtomicInteger(1);
    private final AtomicInteger nextDraftId = new AtomicInteger(1);
    private volatile boolean drafts;
    private volatile boolean streams;
    private final java.util.Set<String> openStreams = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.Map<String, String> liveDrafts = new java.util.concurrent.ConcurrentHashMap<>();
    // message id -> what it shows now; in the order the messages were posted
    private final java.util.Map<String, String> screen = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>());
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final Queue<Exception> editFailures = new ConcurrentLinkedQueue<>();
    private final Queue<Exception> reactFailures = new ConcurrentLinkedQueue<>();
    private volatile dev.laneway.core.channel.ReceiptMode receiptMode = dev.laneway.core.channel.ReceiptMode.OFF;

    public FakeChannel(String name) {
        this(name, new ChannelCapabilities(4096, true, Duration.ofSeconds(4), true, true));
    }

    public FakeChannel(String name, ChannelCapabilities capabilities) {
        this.name = name;
        this.capabilities = capabilities;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ChannelCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public void start(InboundSink sink) throws IOException {
        int attempt = startAttempts.incrementAndGet();
        if (startFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IOException("connection refused (start attempt " + attempt + ")");
        }
        this.sink = sink;
        duringStart.run();
        started = true;
    }

    @Override
    public void send(Route route, String text) throws Exception {
        attempts.add(text);
        Exception failure = sendFailures.poll();
        if (failure != null) {
            throw failure;
        }
        if (failSends) {
            throw new IllegalStateException("the platform refused the message");
        }
        if (sendsOnlyOnceStarted && !started) {
            throw new IllegalStateException("the " + name + " channel is not started; cannot send to " + route.chatId());
        }
        sent.add(new Sent(route, text));
        progress.add("send " + text);
        onSend.accept(text);
    }

    @Override
    public Streaming streaming(Route route) {
        return streaming;
    }

    /**
     * Sends as {@link #send} does and returns the new message's id ({@code p1}, {@code p2}, ...); with
     * {@link #drafts} on, shows a draft instead ({@code d1}, ...: not sent, not on the screen).
     */
    @Override
    public String post(Route route, String text) throws Exception {
        if (streams) {
            send(route, text);
            String id = "s" + nextMessageId.getAndIncrement();
            screen.put(id, text);
            openStreams.add(id);
            calls.add("stream " + id + " " + text);
            return id;
        }
        if (drafts) {
            String id = "d" + nextDraftId.getAndIncrement();
            calls.add("draft " + id + " " + text);
            Exception failure = editFailures.poll();
            if (failure != null) {
                throw failure;
            }
            liveDrafts.put(id, text);
            return id;
        }
        send(route, text);
        String id = "p" + nextMessageId.getAndIncrement();
        screen.put(id, text);
        calls.add("post " + id + " " + text);
        return id;
    }

    @Override
    public boolean draft(String messageId) {
        return messageId.startsWith("d");
    }

    /** A stream ({@link #streams} on) is finished too, though the chat keeps it. */
    @Override
    public boolean finishes(String messageId) {
        return draft(messageId) || openStreams.contains(messageId);
    }

    /** Live answers post streams ({@code s1}, ...): kept by the chat, edited, and stopped by {@code keep}. */
    public FakeChannel streams(boolean on) {
        streams = on;
        return this;
    }

    /** The final text of a draft (or of the rest of a degraded answer) sent as a message: {@code keep <draft|-> <text>}. */
    @Override
    public String keep(Route route, String draftId, String text) throws Exception {
        if (draftId != null && openStreams.remove(draftId)) {
            calls.add("stop " + draftId + " " + text);
            screen.put(draftId, text);
            return draftId;
        }
        if (draftId == null && streams) {
            send(route, text); // the rest of a degraded answer: a plain message, not a stream
            String id = "p" + nextMessageId.getAndIncrement();
            screen.put(id, text);
            calls.add("post " + id + " " + text);
            return id;
        }
        if (draftId == null && !drafts) {
            return post(route, text); // the rest of a degraded answer, as a plain post
        }
        return keepNew(route, draftId, text);
    }

    private String keepNew(Route route, String draftId, String text) throws Exception {
        calls.add("keep " + (draftId == null ? "-" : draftId) + " " + text);
        send(route, text);
        String id = "p" + nextMessageId.getAndIncrement();
        screen.put(id, text);
        if (draftId != null) {
            liveDrafts.remove(draftId);
        }
        return id;
    }

    /** Live answers show drafts ({@code post} and {@code edit} change a draft; {@code keep} sends it), as a Telegram private chat. */
    public FakeChannel drafts(boolean on) {
        drafts = on;
        return this;
    }

    /** The drafts shown now and not yet kept, by id. */
    public java.util.Map<String, String> liveDrafts() {
        return java.util.Map.copyOf(liveDrafts);
    }

    @Override
    public void edit(Route route, String messageId, String text) throws Exception {
        if (draft(messageId)) {
            calls.add("draft " + messageId + " " + text);
            Exception failure = editFailures.poll();
            if (failure != null) {
                throw failure;
            }
            liveDrafts.put(messageId, text);
            return;
        }
        calls.add("edit " + messageId + " " + text);
        Exception failure = editFailures.poll();
        if (failure != null) {
            throw failure;
        }
        if (!screen.containsKey(messageId)) {
            throw SendFailure.refused("no message " + messageId);
        }
        screen.put(messageId, text);
        progress.add("edit " + messageId + " " + text);
    }

    /**
     * The same platform after a restart: the messages {@code before} posted are still there (and
     * can be edited), and new ones get ids after its ids.
     */
    public FakeChannel sameChatsAs(FakeChannel before) {
        synchronized (before.screen) {
            screen.putAll(before.screen);
        }
        nextMessageId.set(before.nextMessageId.get());
        return this;
    }

    /** Streams answers from now on ({@link Streaming#OFF}: not). */
    public FakeChannel streaming(Streaming value) {
        streaming = value;
        return this;
    }

    /** The next edits throw these, one each, in order (each is still recorded in {@link #calls}). */
    public FakeChannel failNextEdits(Exception... failures) {
        editFailures.addAll(List.of(failures));
        return this;
    }

    /** Every post and edit tried, in order: {@code post <id> <text>}, {@code edit <id> <text>}. */
    public List<String> calls() {
        return List.copyOf(calls);
    }

    /** What the posted messages show now, in the order they were posted (plain sends are not included). */
    public List<String> screen() {
        synchronized (screen) {
            return List.copyOf(screen.values());
        }
    }

    @Override
    public Duration pace(Route route) {
        return pacing.apply(route);
    }

    @Override
    public void typing(Route route) throws Exception {
        typing.add(route);
        duringTyping.run();
        Exception failure = typingFailures.poll();
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public dev.laneway.core.channel.ReceiptMode receipts() {
        return receiptMode;
    }

    /** Shows receipts so from now on; read by a gateway when it is built. */
    public FakeChannel receipts(dev.laneway.core.channel.ReceiptMode mode) {
        receiptMode = mode;
        return this;
    }

    /** The next reactions throw these, one each, in order (each call is still recorded). */
    public FakeChannel failNextReacts(Exception... failures) {
        reactFailures.addAll(List.of(failures));
        return this;
    }

    /** Records {@code react <message id> <emoji>} ({@code -} for a removal) in {@link #progress}. */
    @Override
    public void react(Route route, dev.laneway.core.channel.Receipt shown, dev.laneway.core.channel.Receipt replaced)
            throws Exception {
        progress.add("react " + route.replyToMessageId() + " " + (shown == null ? "-" : shown.emoji()));
        Exception failure = reactFailures.poll();
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void accepted(Route route) {
        progress.add("accepted " + route.replyToMessageId());
    }

    @Override
    public void settled(Route route) {
        progress.add("settled " + route.replyToMessageId());
    }

    @Override
    public void stopReceiving() {
        receivingStopped = true;
    }

    @Override
    public void stop() {
        started = false;
    }

    /** Whether the gateway asked the channel to stop fetching messages ({@link #stopReceiving}). */
    public boolean receivingStopped() {
        return receivingStopped;
    }

    /** The next {@code count} starts throw, as a platform that cannot be reached would. */
    public FakeChannel failStarts(int count) {
        startFailures.set(count);
        return this;
    }

    /** From now on sends throw until a start has completed. */
    public FakeChannel sendsOnlyOnceStarted() {
        sendsOnlyOnceStarted = true;
        return this;
    }

    /** Runs {@code action} inside a successful start, before the channel counts as started. */
    public FakeChannel duringStart(Runnable action) {
        duringStart = action;
        return this;
    }

    /** Runs {@code action} with each sent text, on the sending thread, after recording it. */
    public FakeChannel onSend(java.util.function.Consumer<String> action) {
        onSend = action;
        return this;
    }

    /** Every send throws while {@code value} is true. */
    public FakeChannel failSends(boolean value) {
        failSends = value;
        return this;
    }

    /** The next sends throw these, one each, in order (then sends work again). */
    public FakeChannel failNextSends(Exception... failures) {
        sendFailures.addAll(List.of(failures));
        return this;
    }

    /** The next typing actions throw these, one each, in order (each typing call is still recorded). */
    public FakeChannel failNextTyping(Exception... failures) {
        typingFailures.addAll(List.of(failures));
        return this;
    }

    /** Runs {@code action} inside each typing call, before it fails or returns (on the outbox's thread). */
    public FakeChannel duringTyping(Runnable action) {
        duringTyping = action;
        return this;
    }

    /** What {@link #pace} answers from now on (default: zero, send at once). */
    public FakeChannel pacing(Function<Route, Duration> value) {
        pacing = value;
        return this;
    }

    /** Every text the outbox tried to send, failed attempts included, in order. */
    public List<String> attempts() {
        return List.copyOf(attempts);
    }

    /** How many times start was called. */
    public int startAttempts() {
        return startAttempts.get();
    }

    /** Whether a start has completed (and no stop came after it). */
    public boolean started() {
        return started;
    }

    public InboundSink sink() {
        return sink;
    }

    public List<Sent> sent() {
        return List.copyOf(sent);
    }

    /** The texts sent, in order. */
    public List<String> texts() {
        List<String> texts = new ArrayList<>();
        sent.forEach(s -> texts.add(s.text()));
        return texts;
    }

    /** Texts sent to one chat, in order. */
    public List<String> textsTo(String chatId) {
        List<String> texts = new ArrayList<>();
        sent.stream().filter(s -> s.route().chatId().equals(chatId)).forEach(s -> texts.add(s.text()));
        return texts;
    }

    public List<Route> typing() {
        return List.copyOf(typing);
    }

    /**
     * Sends and the per-message hooks in the order the channel saw them ({@code send <text>},
     * {@code accepted <message id>}, {@code settled <message id>}).
     */
    public List<String> progress() {
        return List.copyOf(progress);
    }

    /** Records an event of the test's own (a journal write, say) in {@link #progress} order. */
    public void note(String event) {
        progress.add(event);
    }

    public void clear() {
        sent.clear();
        typing.clear();
    }

    /** One sent message. */
    public record Sent(Route route, String text) {
    }
}
