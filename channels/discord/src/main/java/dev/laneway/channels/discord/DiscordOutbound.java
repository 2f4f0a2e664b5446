package dev.laneway.channels.discord;

import dev.laneway.core.channel.Receipt;
import net.dv8tion.jda.api.entities.emoji.Emoji;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ExpiringEntries;
import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.channel.Redactor;
import dev.laneway.core.channel.SendFailure;
import java.time.Duration;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import net.dv8tion.jda.api.entities.Message;
import net.dv8tion.jda.api.entities.channel.middleman.GuildMessageChannel;
import net.dv8tion.jda.api.entities.channel.middleman.MessageChannel;
import net.dv8tion.jda.api.exceptions.ErrorResponseException;
import net.dv8tion.jda.api.exceptions.InteractionFailureException;
import net.dv8tion.jda.api.interactions.InteractionHook;
import net.dv8tion.jda.api.requests.restaction.MessageCreateAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends replies and typing through JDA, blocking the calling thread (the gateway's outbox runs each
 * chat's sends on a virtual thread, one at a time). JDA's rate limiter owns pacing and 429s: a
 * rate-limited send waits for its bucket and is retried, so it simply returns later; JDA also tries
 * a 5xx a few times itself. What still fails is handed to the outbox as a {@link SendFailure}: a
 * server error to try again later, no answer within the timeout as "may have been delivered",
 * anything else refused; Discord's words are {@link Redactor redacted} first.
 *
 * <p>A DM is addressed by user id; the DM channel Discord opens for it ({@code POST
 * users/@me/channels}) is remembered for a day (at most {@link #REMEMBERED_DMS}), so a reply or a
 * typing refresh costs one request, not two. A send that fails forgets it, so the next one asks
 * Discord again (the DM may be gone).
 *
 * <p>A reply references the message it answers and may ping only that message's author, and only
 * once: the first message that replies to a given message notifies its author, the later chunks
 * of a long answer (and later answers to the same message) reference it silently. Allowed mentions
 * parse nothing, so model output can never ping {@code @everyone}, a role or a user.
 *
 * <p>A route replying to {@code interaction:<id>} is answered through that interaction while its
 * token is valid, else as a plain channel message; sending the first answer marks the interaction
 * answered, so the {@link InteractionFinisher} leaves it alone. If Discord refused the
 * interaction's acknowledgement (JDA then fails everything queued on its hook with an
 * {@link InteractionFailureException}), the answer goes to the channel as a plain message instead,
 * so it still reaches the user exactly once.
 *
 * <p>A guild channel or thread is taken from the cache of a shard connected here; one that is not
 * there (in a fleet its shard may be connected by another instance) is addressed by its id through
 * REST alone ({@link ChannelRest}; docs/behaviour.md §17, "Ingress"), and a DM is opened through
 * the REST client ({@link DiscordShards#rest}), so a send never needs the shard.
 *
 * <p>Concurrency: {@code lock} guards {@code dmChannels}; {@code pinged} and the shared
 * {@link PendingInteractions} guard themselves, so any thread may call in.
 */
final class DiscordOutbound {

    static final int MAX_TEXT = 2000;
    static final int REMEMBERED_DMS = 10_000;
    private static final int REMEMBERED_PINGS = 10_000;
    private static final Duration REMEMBERED_FOR = Duration.ofHours(24);
    private static final EnumSet<Message.MentionType> NO_MENTIONS = EnumSet.noneOf(Message.MentionType.class);
    private static final Logger log = LoggerFactory.getLogger(DiscordOutbound.class);

    private final DiscordShards shards;
    private final PendingInteractions<InteractionHook> interactions;
    private final InteractionFinisher<InteractionHook> finisher;
    /** The longest a reaction call may hold up the chat's outbox (D231). */
    static final Duration REACTION_TIMEOUT = Duration.ofSeconds(3);
    private final Duration timeout;
    private final Redactor redactor;
    // message ids whose author a reply already pinged
    private final ExpiringKeys pinged;
    private final ReentrantLock lock = new ReentrantLock();
    // user id -> the DM channel Discord opened for the bot and that user; guarded by lock
    private final ExpiringEntries<MessageChannel> dmChannels;

    DiscordOutbound(DiscordShards shards, PendingInteractions<InteractionHook> interactions,
                    InteractionFinisher<InteractionHook> finisher, Duration timeout, InstantSource clock,
                    Redactor redactor) {
        this.shards = shards;
        this.interactions = interactions;
        this.finisher = finisher;
        this.timeout = timeout;
        this.redactor = redactor;
        this.pinged = new ExpiringKeys(clock, REMEMBERED_FOR, REMEMBERED_PINGS);
        this.dmChannels = new ExpiringEntries<>(clock, REMEMBERED_FOR, REMEMBERED_DMS);
    }

    /**
     * Sends {@code text} as one message. The gateway's outbox is the only chunker: it hands over at
     * most {@link #MAX_TEXT} characters; a longer text is refused before anything is sent.
     */
    void send(Route route, String text) throws SendFailure {
        if (text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("a Discord message holds at most " + MAX_TEXT + " characters, got "
                    + text.length() + " (the outbox chunks replies)");
        }
        try {
            sendOne(route, text);
        } catch (RuntimeException e) {
            forgetDm(route);
            throw failure(e);
        }
    }

    /**
     * As {@link #send}, returning the new message's id so a live answer can edit it
     * (docs/behaviour.md §16); null for an answer through an interaction (not streamed).
     */
    String post(Route route, String text) throws SendFailure {
        if (text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("a Discord message holds at most " + MAX_TEXT + " characters, got "
                    + text.length() + " (the outbox chunks replies)");
        }
        try {
            return sendOne(route, text);
        } catch (RuntimeException e) {
            forgetDm(route);
            throw failure(e);
        }
    }

    /** Replaces the text of the bot's message {@code messageId}; JDA waits out a 429 itself. */
    void edit(Route route, String messageId, String text) throws SendFailure {
        if (text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("a Discord message holds at most " + MAX_TEXT + " characters, got "
                    + text.length());
        }
        try {
            MessageChannel channel = channel(route);
            if (channel == null) {
                ChannelRest.edit(shards.rest(), channelId(route), messageId, text, timeout);
                return;
            }
            channel.editMessageById(messageId, text).setAllowedMentions(NO_MENTIONS)
                    .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
        } catch (RuntimeException e) {
            forgetDm(route);
            throw failure(e);
        }
    }

    void typing(Route route) throws SendFailure {
        try {
            MessageChannel channel = channel(route);
            if (channel == null) {
                ChannelRest.typing(shards.rest(), channelId(route), timeout);
                return;
            }
            channel.sendTyping().timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
        } catch (RuntimeException e) {
            forgetDm(route);
            throw failure(e);
        }
    }

    /**
     * A receipt as the bot's reaction (docs/behaviour.md §16.5): the one it showed removed, the new
     * one added (nothing when both are the same emoji). Not on a slash command's answer (no message
     * of the user's to react to). A refusal (no Add Reactions or Read Message History permission)
     * throws, and the gateway logs it once per chat. A reaction fails fast (D231): JDA does not wait
     * out a 429 for it (the rate-limited reaction is given up), and each call waits at most
     * {@link #REACTION_TIMEOUT}, as receipts run in the chat's outbox, in line before its answers.
     */
    void react(Route route, Receipt shown, Receipt replaced) throws SendFailure {
        String messageId = route.replyToMessageId();
        if (messageId == null || Addresses.interactionId(messageId).isPresent()) {
            return;
        }
        String now = shown == null ? null : emoji(shown);
        String before = replaced == null ? null : emoji(replaced);
        if (java.util.Objects.equals(now, before)) {
            return;
        }
        Duration wait = timeout.compareTo(REACTION_TIMEOUT) < 0 ? timeout : REACTION_TIMEOUT;
        try {
            MessageChannel channel = channel(route);
            if (channel == null) { // its shard is held elsewhere: by REST with the channel's id (D222)
                if (before != null) {
                    ChannelRest.react(shards.rest(), channelId(route), messageId, before, false, wait);
                }
                if (now != null) {
                    ChannelRest.react(shards.rest(), channelId(route), messageId, now, true, wait);
                }
                return;
            }
            if (before != null) {
                ChannelRest.failFast(channel.removeReactionById(messageId, Emoji.fromUnicode(before)), wait);
            }
            if (now != null) {
                ChannelRest.failFast(channel.addReactionById(messageId, Emoji.fromUnicode(now)), wait);
            }
        } catch (RuntimeException e) {
            forgetDm(route);
            throw failure(e);
        }
    }

    /** Discord's form of a receipt's emoji: ✍ takes its emoji presentation selector there (✍️). */
    static String emoji(Receipt receipt) {
        return receipt == Receipt.RUNNING ? receipt.emoji() + "\uFE0F" : receipt.emoji();
    }

    /** What the outbox should make of a failure, with nothing unredacted in it. */
    private SendFailure failure(RuntimeException e) {
        String detail = "discord: " + redactor.describe(e);
        if (SendFailure.neverSent(e)) {
            return SendFailure.unavailable(detail);
        }
        if (SendFailure.timedOut(e)) {
            return SendFailure.outcomeUnknown(detail);
        }
        if (e instanceof ErrorResponseException response && response.isServerError()) {
            return SendFailure.unavailable(detail);    // JDA already tried it a few times
        }
        return SendFailure.refused(detail);
    }

    /** Sends one message; the id of the message Discord made, or null for an answer through an interaction. */
    private String sendOne(Route route, String text) throws SendFailure {
        Optional<String> interactionId = Addresses.interactionId(route.replyToMessageId());
        Optional<PendingInteractions.Pending<InteractionHook>> pending = interactionId.flatMap(interactions::answering);
        if (pending.isPresent()) {
            answerInteraction(route, interactionId.get(), pending.get(), text);
            return null;
        }
        String replyTo = route.replyToMessageId();
        boolean ping = Addresses.isSnowflake(replyTo) && !alreadyPinged(replyTo);
        MessageChannel channel = channel(route);
        String sent;
        if (channel == null) {
            sent = ChannelRest.post(shards.rest(), channelId(route), text, replyTo, ping, timeout);
        } else {
            MessageCreateAction action = channel.sendMessage(text).setAllowedMentions(NO_MENTIONS);
            if (Addresses.isSnowflake(replyTo)) {
                action = action.setMessageReference(replyTo).mentionRepliedUser(ping).failOnInvalidReply(false);
            }
            sent = action.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete().getId();
        }
        if (ping) {
            rememberPing(replyTo);
        }
        return sent;
    }

    /**
     * Sends through the interaction. If Discord refused its acknowledgement, the hook can never
     * deliver: the answer goes to the channel instead. If its first answer is refused, nothing
     * else will come, so it is closed with a notice; one the outbox will send again (a 5xx) leaves
     * it waiting for that.
     */
    private void answerInteraction(Route route, String interactionId, PendingInteractions.Pending<InteractionHook> pending,
                                   String text) throws SendFailure {
        try {
            pending.handle().sendMessage(text)
                    .setEphemeral(pending.ephemeral())
                    .setAllowedMentions(NO_MENTIONS)
                    .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .complete();
        } catch (RuntimeException e) {
            if (acknowledgementFailed(e)) {
                interactions.forget(interactionId);
                log.warn("discord: slash command interaction {} was never acknowledged; its answer goes to the channel",
                        interactionId);
                MessageChannel channel = channel(route);
                if (channel == null) {
                    ChannelRest.post(shards.rest(), channelId(route), text, null, false, timeout);
                } else {
                    channel.sendMessage(text).setAllowedMentions(NO_MENTIONS)
                            .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
                }
                return;
            }
            SendFailure failure = failure(e);
            if (pending.state() == PendingInteractions.State.AWAITING) {
                if (failure.retryable()) {
                    // the outbox sends it again: the interaction waits for that answer
                    interactions.transition(interactionId, PendingInteractions.State.ANSWERED,
                            PendingInteractions.State.AWAITING);
                } else if (failure.kind() == SendFailure.Kind.REFUSED) {
                    finisher.firstAnswerFailed(interactionId, SlashNotices.NOT_DELIVERED);
                }
            }
            throw failure;
        }
    }

    /** JDA fails what waits on a hook with this when the interaction's acknowledgement was refused. */
    private static boolean acknowledgementFailed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InteractionFailureException) {
                return true;
            }
        }
        return false;
    }

    private boolean alreadyPinged(String messageId) {
        return pinged.contains(messageId);
    }

    private void rememberPing(String messageId) {
        pinged.add(messageId);
    }

    /**
     * Replaces an interaction's deferred "thinking…" reply with {@code notice}, asynchronously
     * (never blocks the caller); a failure is logged through {@code redactor}.
     */
    static CompletableFuture<Message> closeInteraction(InteractionHook hook, String notice, Redactor redactor) {
        return hook.editOriginal(notice).setAllowedMentions(NO_MENTIONS).submit().whenComplete((message, failure) -> {
            if (failure != null) {
                log.warn("discord: could not close a slash command interaction with a notice: {}",
                        redactor.describe(failure));
            }
        });
    }

    /** The DM channel with {@code userId}: remembered, or opened once and then remembered. */
    private MessageChannel dmChannel(String userId) {
        lock.lock();
        try {
            MessageChannel known = dmChannels.get(userId);
            if (known != null) {
                return known;
            }
        } finally {
            lock.unlock();
        }
        MessageChannel opened = shards.rest().openPrivateChannelById(userId).timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .complete();
        lock.lock();
        try {
            dmChannels.put(userId, opened);
        } finally {
            lock.unlock();
        }
        return opened;
    }

    /** A send to a DM failed: the next one opens the DM again, in case it is gone. */
    private void forgetDm(Route route) {
        Addresses.dmUser(route.chatId()).ifPresent(userId -> {
            lock.lock();
            try {
                dmChannels.remove(userId);
            } finally {
                lock.unlock();
            }
        });
    }

    /**
     * The channel a route's messages go to: its thread or its guild channel from the cache of a
     * shard connected here, or the DM with its user; null for a guild channel or thread not in
     * those caches (its shard is held by another instance of the fleet, or the bot cannot see it),
     * which is then addressed by id through REST alone ({@link ChannelRest}; docs/behaviour.md §17,
     * "Ingress"). Discord itself answers a channel the bot cannot reach (404 Unknown Channel, 403).
     */
    private MessageChannel channel(Route route) {
        if (route.threadId() != null) {
            return shards.cached(client -> client.getThreadChannelById(route.threadId()));
        }
        Optional<String> dmUser = Addresses.dmUser(route.chatId());
        if (dmUser.isPresent()) {
            return dmChannel(dmUser.get());
        }
        return shards.cached(client -> client.getChannelById(GuildMessageChannel.class, route.chatId()));
    }

    /** The id of a route's guild channel or thread (never a DM's: those are opened by user id). */
    private static String channelId(Route route) {
        return route.threadId() != null ? route.threadId() : route.chatId();
    }
}
