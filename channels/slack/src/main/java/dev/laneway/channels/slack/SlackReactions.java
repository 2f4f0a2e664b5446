package dev.laneway.channels.slack;

import dev.laneway.core.Route;
import dev.laneway.core.channel.Receipt;
import dev.laneway.core.channel.SendFailure;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Receipts as Slack reactions (docs/behaviour.md §16.5): {@code reactions.remove} of the one shown,
 * then {@code reactions.add} of the new one (a remove answered {@code no_reaction} or an add answered
 * {@code already_reacted} leaves what was wanted, so it is no failure: D232); nothing when both have the same emoji (queued and
 * running are both 👀, so a message that waited and then runs keeps its 👀, as the 👀 progress
 * reaction did before receipts). Ids that are not message timestamps (slash commands) are left
 * alone. A refused call throws, and the gateway logs it once per chat: a receipt is a courtesy,
 * never worth holding up a reply. Stateless: what a message shows is the gateway's to track.
 */
final class SlackReactions {

    /** Slack's answer to removing a reaction the message does not show. */
    static final String NO_REACTION = "no_reaction";
    /** Slack's answer to adding a reaction the message shows already. */
    static final String ALREADY_REACTED = "already_reacted";
    private static final Pattern TS = Pattern.compile("\\d{1,12}\\.\\d{1,9}");

    /** The Slack calls; each returns Slack's error code, or null when done. */
    interface Api {
        String add(String channel, String ts, String name);

        String remove(String channel, String ts, String name);
    }

    private final Api api;

    SlackReactions(Api api) {
        this.api = api;
    }

    /** Slack's name of the receipt's emoji (docs/behaviour.md §16.5, the table). */
    static String name(Receipt receipt) {
        return switch (receipt) {
            case QUEUED, RUNNING -> "eyes";
            case MERGED -> "handshake";
            case STEERED -> "zap";
            case DROPPED -> "see_no_evil";
            case SHED -> "shrug";
        };
    }

    /** Shows {@code shown} (null: nothing) on the route's message, where it showed {@code replaced} (null: nothing). */
    void react(Route route, Receipt shown, Receipt replaced) throws SendFailure {
        String ts = route.replyToMessageId();
        if (!isMessageTs(ts)) {
            return;
        }
        String now = shown == null ? null : name(shown);
        String before = replaced == null ? null : name(replaced);
        if (Objects.equals(now, before)) {
            return;
        }
        if (before != null) {
            String error = api.remove(route.chatId(), ts, before);
            if (!NO_REACTION.equals(error)) { // not shown after all: nothing to remove, the new one still goes on (D232)
                check("reactions.remove", error);
            }
        }
        if (now != null) {
            String error = api.add(route.chatId(), ts, now);
            if (!ALREADY_REACTED.equals(error)) { // shown already (by the instance that received it): as wanted
                check("reactions.add", error);
            }
        }
    }

    private static void check(String method, String error) throws SendFailure {
        if (error != null) {
            throw SendFailure.refused("Slack " + method + " failed: " + error
                    + " (receipts need the reactions:write scope)");
        }
    }

    /** Whether {@code id} is a Slack message ts ({@code 1700000000.000100}). */
    static boolean isMessageTs(String id) {
        return id != null && TS.matcher(id).matches();
    }
}
