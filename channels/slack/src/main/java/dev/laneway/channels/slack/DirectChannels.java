package dev.laneway.channels.slack;

import dev.laneway.core.channel.ExpiringKeys;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which {@code D...} channels are DMs with this bot. A slash command carries only its channel id.
 * A {@code D...} id is always an IM (a group DM is a {@code G...} id), but a command used in a DM
 * between two people has one too: treating that as a DM with the bot would let anyone there act as
 * if in their own DM. A DM counts as the bot's when a {@code message.im} event came from it (Slack
 * sends those only for the bot's own DMs), or when Slack confirms it: {@code conversations.info}
 * shows it as the bot's IM (needs {@code im:read}), or, when that is unavailable (an install from
 * before {@code im:read} was in the manifest) or fails, {@code conversations.history} can read it
 * (needs {@code im:history}; a bot can read only the IMs it is in). Slack saying no makes it a
 * DM between others; when neither lookup answers the channel stays {@link Verdict#UNKNOWN}, and
 * the caller tells the user instead of guessing a session.
 *
 * <p>Concurrency: the key sets are thread-safe; the two {@code usable} flags are atomics, turned off
 * once when Slack says the token lacks the lookup's scope. Two lookups of one unknown channel may
 * both call Slack, which is harmless.
 */
final class DirectChannels {

    private static final Logger log = LoggerFactory.getLogger(DirectChannels.class);

    /** What a slash command's channel is. */
    enum Verdict {
        /** the bot's own DM with the sender */
        BOTS_DM,
        /** not a DM with the bot: a channel, or a DM between other people */
        OTHER,
        /** a {@code D...} channel Slack could not be asked about just now */
        UNKNOWN
    }

    /** Asks Slack about one IM: true/false as Slack answered; throws when it could not answer. */
    @FunctionalInterface
    interface Lookup {
        boolean ask(String channelId) throws Exception;
    }

    private final Check info;
    private final Check history;
    private final ExpiringKeys bots;
    private final ExpiringKeys others;

    /**
     * @param isBotIm    {@code conversations.info}: is it the bot's IM
     * @param isImMember {@code conversations.history}: can the bot read it
     * @param scopes     the token's scopes, so a lookup known to be refused is not tried
     */
    DirectChannels(Lookup isBotIm, Lookup isImMember, BotScopes scopes, InstantSource clock) {
        this.info = new Check("conversations.info", isBotIm, !scopes.lacks("im:read"));
        this.history = new Check("conversations.history", isImMember, !scopes.lacks("im:history"));
        this.bots = new ExpiringKeys(clock, Duration.ofDays(7), 50_000);
        this.others = new ExpiringKeys(clock, Duration.ofMinutes(10), 10_000);
    }

    /** A {@code message.im} event came from this channel: it is one of the bot's DMs. */
    void learn(String channelId) {
        bots.add(channelId);
    }

    Verdict classify(String channelId) {
        if (!SlackChannel.isDirect(channelId) || others.contains(channelId)) {
            return Verdict.OTHER;
        }
        if (bots.contains(channelId)) {
            return Verdict.BOTS_DM;
        }
        Boolean botIm = info.ask(channelId);
        if (botIm == null) {
            botIm = history.ask(channelId);
        }
        if (botIm == null) {
            log.warn("Slack could not tell whether {} is the bot's DM (conversations.info and conversations.history "
                    + "both failed); the slash command there was answered with a hint to try again", channelId);
            return Verdict.UNKNOWN;
        }
        (botIm ? bots : others).add(channelId);
        return botIm ? Verdict.BOTS_DM : Verdict.OTHER;
    }

    /** One lookup, switched off for good once Slack says the token lacks its scope. */
    private static final class Check {
        private final String method;
        private final Lookup lookup;
        private final AtomicBoolean usable;

        Check(String method, Lookup lookup, boolean usable) {
            this.method = method;
            this.lookup = lookup;
            this.usable = new AtomicBoolean(usable);
        }

        /** Slack's answer, or null when the lookup is unusable or failed. */
        Boolean ask(String channelId) {
            if (!usable.get()) {
                return null;
            }
            try {
                return lookup.ask(channelId);
            } catch (SlackWeb.MissingScope e) {
                if (usable.getAndSet(false)) {
                    log.warn("{}; not using {} for slash commands in DMs from now on (reinstall the app with the "
                            + "scopes in the Slack channel's README)", e.getMessage(), method);
                }
                return null;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                log.info("Slack {} for {} failed: {}", method, channelId, e.getMessage());
                return null;
            }
        }
    }
}
