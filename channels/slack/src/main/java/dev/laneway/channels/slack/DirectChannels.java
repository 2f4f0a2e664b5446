package dev.laneway.channels.slack;

import java.time.Duration;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which {@code D...} channels are DMs with this bot. A slash command carries only its channel id,
 * and a command used in a DM between two people has a {@code D...} id too: treating that as a DM
 * with the bot would let anyone change settings there. A DM counts as the bot's when a
 * {@code message.im} event came from it (Slack sends those only for the bot's own DMs) or when
 * {@code conversations.info} shows the bot can see it as an IM; anything else is a group.
 *
 * <p>Concurrency: the key sets are thread-safe; two lookups of one unknown channel may both call
 * Slack, which is harmless.
 */
final class DirectChannels {

    private static final Logger log = LoggerFactory.getLogger(DirectChannels.class);

    /** Asks Slack whether the bot sees {@code channelId} as one of its IMs; throws when Slack refuses. */
    @FunctionalInterface
    interface Lookup {
        boolean isBotIm(String channelId) throws Exception;
    }

    private final Lookup lookup;
    private final RecentKeys bots;
    private final RecentKeys others;

    DirectChannels(Lookup lookup, InstantSource clock) {
        this.lookup = lookup;
        this.bots = new RecentKeys(clock, Duration.ofDays(7), 50_000);
        this.others = new RecentKeys(clock, Duration.ofMinutes(10), 10_000);
    }

    /** A {@code message.im} event came from this channel: it is one of the bot's DMs. */
    void learn(String channelId) {
        bots.add(channelId);
    }

    boolean isBotDm(String channelId) {
        if (!SlackChannel.isDirect(channelId)) {
            return false;
        }
        if (bots.contains(channelId)) {
            return true;
        }
        if (others.contains(channelId)) {
            return false;
        }
        boolean botIm;
        try {
            botIm = lookup.isBotIm(channelId);
        } catch (Exception e) {
            log.warn("Slack conversations.info for {} failed ({}); the slash command there counts as a group "
                    + "message (the check needs the im:read scope)", channelId, e.getMessage());
            return false;
        }
        (botIm ? bots : others).add(channelId);
        return botIm;
    }
}
