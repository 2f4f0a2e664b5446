package dev.laneway.channels.discord;

import dev.laneway.core.Route;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import net.dv8tion.jda.api.JDA;
import net.dv8tion.jda.api.entities.Message;
import net.dv8tion.jda.api.entities.channel.concrete.ThreadChannel;
import net.dv8tion.jda.api.entities.channel.middleman.GuildMessageChannel;
import net.dv8tion.jda.api.entities.channel.middleman.MessageChannel;
import net.dv8tion.jda.api.exceptions.InteractionFailureException;
import net.dv8tion.jda.api.interactions.InteractionHook;
import net.dv8tion.jda.api.requests.restaction.MessageCreateAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends replies and typing through JDA, blocking the calling thread (the gateway's outbox runs each
 * chat's sends on a virtual thread, one at a time). JDA's rate limiter owns pacing and 429s: a
 * rate-limited send waits for its bucket and is retried, so it simply returns later.
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
 * <p>Concurrency: {@code lock} guards {@code pinged}; the shared {@link PendingInteractions}
 * guards itself, so any thread may call in.
 */
final class DiscordOutbound {

    static final int MAX_TEXT = 2000;
    private static final int REMEMBERED_PINGS = 10_000;
    private static final EnumSet<Message.MentionType> NO_MENTIONS = EnumSet.noneOf(Message.MentionType.class);
    private static final Logger log = LoggerFactory.getLogger(DiscordOutbound.class);

    private final JDA jda;
    private final PendingInteractions<InteractionHook> interactions;
    private final InteractionFinisher<InteractionHook> finisher;
    private final Duration timeout;
    private final ReentrantLock lock = new ReentrantLock();
    // message id whose author a reply already pinged -> true; guarded by lock; least recent first
    private final Map<String, Boolean> pinged = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_PINGS;
        }
    };

    DiscordOutbound(JDA jda, PendingInteractions<InteractionHook> interactions,
                    InteractionFinisher<InteractionHook> finisher, Duration timeout) {
        this.jda = jda;
        this.interactions = interactions;
        this.finisher = finisher;
        this.timeout = timeout;
    }

    /**
     * Sends {@code text} as one message. The gateway's outbox is the only chunker: it hands over at
     * most {@link #MAX_TEXT} characters; a longer text is refused before anything is sent.
     */
    void send(Route route, String text) {
        if (text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("a Discord message holds at most " + MAX_TEXT + " characters, got "
                    + text.length() + " (the outbox chunks replies)");
        }
        sendOne(route, text);
    }

    private void sendOne(Route route, String text) {
        Optional<String> interactionId = Addresses.interactionId(route.replyToMessageId());
        Optional<PendingInteractions.Pending<InteractionHook>> pending = interactionId.flatMap(interactions::answering);
        if (pending.isPresent()) {
            answerInteraction(route, interactionId.get(), pending.get(), text);
            return;
        }
        MessageCreateAction action = channel(route).sendMessage(text).setAllowedMentions(NO_MENTIONS);
        String replyTo = route.replyToMessageId();
        boolean ping = false;
        if (Addresses.isSnowflake(replyTo)) {
            ping = !alreadyPinged(replyTo);
            action = action.setMessageReference(replyTo).mentionRepliedUser(ping).failOnInvalidReply(false);
        }
        action.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
        if (ping) {
            rememberPing(replyTo);
        }
    }

    /**
     * Sends through the interaction. If Discord refused its acknowledgement, the hook can never
     * deliver: the answer goes to the channel instead. If its first answer fails otherwise,
     * nothing else will come, so it is closed with a notice.
     */
    private void answerInteraction(Route route, String interactionId, PendingInteractions.Pending<InteractionHook> pending,
                                   String text) {
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
                channel(route).sendMessage(text).setAllowedMentions(NO_MENTIONS)
                        .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
                return;
            }
            if (pending.state() == PendingInteractions.State.AWAITING) {
                finisher.firstAnswerFailed(interactionId, SlashNotices.NOT_DELIVERED);
            }
            throw e;
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
        lock.lock();
        try {
            return pinged.containsKey(messageId);
        } finally {
            lock.unlock();
        }
    }

    private void rememberPing(String messageId) {
        lock.lock();
        try {
            pinged.put(messageId, Boolean.TRUE);
        } finally {
            lock.unlock();
        }
    }

    /** Replaces an interaction's deferred "thinking…" reply with {@code notice}, asynchronously (never blocks the caller). */
    static CompletableFuture<Message> closeInteraction(InteractionHook hook, String notice) {
        return hook.editOriginal(notice).setAllowedMentions(NO_MENTIONS).submit().whenComplete((message, failure) -> {
            if (failure != null) {
                log.warn("discord: could not close a slash command interaction with a notice: {}", failure.toString());
            }
        });
    }

    void typing(Route route) {
        channel(route).sendTyping().timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
    }

    /** The channel a route's messages go to: its thread, the DM with its user, or its guild channel. */
    private MessageChannel channel(Route route) {
        if (route.threadId() != null) {
            ThreadChannel thread = jda.getThreadChannelById(route.threadId());
            if (thread == null) {
                throw new IllegalStateException("discord thread " + route.threadId()
                        + " is not known to the bot (archived, deleted, or the bot left the server)");
            }
            return thread;
        }
        Optional<String> dmUser = Addresses.dmUser(route.chatId());
        if (dmUser.isPresent()) {
            return jda.openPrivateChannelById(dmUser.get()).timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
        }
        GuildMessageChannel channel = jda.getChannelById(GuildMessageChannel.class, route.chatId());
        if (channel == null) {
            throw new IllegalStateException("discord channel " + route.chatId()
                    + " is not known to the bot (deleted, or the bot left the server)");
        }
        return channel;
    }
}
