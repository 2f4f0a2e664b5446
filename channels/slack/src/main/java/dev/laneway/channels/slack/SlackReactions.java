package dev.laneway.channels.slack;

import dev.laneway.core.Route;
import dev.laneway.core.channel.Receipt;
import dev.laneway.core.channel.SendFailure;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Receipts as Slack reactions (docs/behaviour.md §16.5): {@code reactions.remove} of the one shown,
 * then {@code reactions.add} of the new one; nothing when both have the same emoji (queued and
 * running are both 👀, so a message that waited and then runs keeps its 👀, as the 👀 progress
 * reaction did before receipts). Ids that are not message timestamps (slash commands) are left
 * alone. A refused call throws, and the gateway logs it once per chat: a receipt is a courtesy,
 * never worth holding up a reply. Stateless: what a message shows is the gateway's to track.
 */
final class SlackReactions {

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
            check("reactions.remove", api.remove(route.chatId(), ts, before));
        }
        if (now != null) {
            check("reactions.add", api.add(route.chatId(), ts, now));
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
