package dev.laneway.channels.slack;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.laneway.core.Attachment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Turns an {@code events_api} payload ({@code message} or {@code app_mention}) into an
 * {@link InboundDraft}, or says why it is ignored. Pure apart from the engaged-thread lookup.
 *
 * <ul>
 *   <li>DMs ({@code channel_type: im}) always pass; a DM in a thread is answered in that thread.</li>
 *   <li>In channels, a message in a thread belongs to that thread ({@code threadId = thread_ts});
 *       a top-level message starts a thread under itself ({@code threadId = ts}).</li>
 *   <li>Mention gating ({@code channels.requireMention}): a channel message passes when it mentions
 *       the bot, when mentions are not required, or when it is in a thread the bot already takes
 *       part in (that counts as replying to the bot): one it was mentioned in or answered in
 *       (remembered in memory), or one under a message the bot posted ({@code parent_user_id},
 *       which Slack sends with every thread reply, so that one survives a restart).</li>
 *   <li>Messages posted by any app or bot ({@code bot_id} or {@code bot_profile} set: this bot,
 *       other apps, integrations) are ignored, so two bots can never answer each other in a loop;
 *       so are {@code bot_message} and edit/delete/join subtypes.</li>
 * </ul>
 */
final class EventConverter {

    /** Subtypes that carry a person's new message; every other subtype is bookkeeping. */
    private static final Set<String> USER_SUBTYPES = Set.of("file_share", "thread_broadcast");

    private final BotIdentity bot;
    private final boolean requireMention;
    private final Predicate<String> engagedThread;

    /**
     * @param engagedThread whether a thread key ({@link SlackChannel#threadKey}) is one the bot takes
     *                      part in
     */
    EventConverter(BotIdentity bot, boolean requireMention, Predicate<String> engagedThread) {
        this.bot = bot;
        this.requireMention = requireMention;
        this.engagedThread = engagedThread;
    }

    Conversion convert(JsonObject payload) {
        JsonObject event = Json.obj(payload, "event");
        if (event == null) {
            return new Conversion.Ignored("payload without an event");
        }
        String type = Json.str(event, "type");
        if (!"message".equals(type) && !"app_mention".equals(type)) {
            return new Conversion.Ignored("event type " + type);
        }
        String subtype = Json.str(event, "subtype");
        if (subtype != null && !USER_SUBTYPES.contains(subtype)) {
            return new Conversion.Ignored("message subtype " + subtype);
        }
        String user = Json.str(event, "user");
        String botId = Json.str(event, "bot_id");
        if (bot.isSelf(user, botId)) {
            return new Conversion.Ignored("the bot's own message");
        }
        if (botId != null || event.has("bot_profile")) {
            return new Conversion.Ignored("a message posted by an app or bot");
        }
        String channel = Json.str(event, "channel");
        String ts = Json.str(event, "ts");
        if (user == null || channel == null || ts == null) {
            return new Conversion.Ignored("message without user, channel or ts");
        }
        return place(event, type, user, channel, ts, teamOf(payload, event));
    }

    private Conversion place(JsonObject event, String type, String user, String channel, String ts, String team) {
        String raw = Json.str(event, "text");
        boolean mentioned = "app_mention".equals(type) || (raw != null && raw.contains(bot.mentionToken()));
        String threadTs = Json.str(event, "thread_ts");
        boolean inThread = threadTs != null && !threadTs.equals(ts);
        boolean direct = isDirect(Json.str(event, "channel_type"), channel);
        String threadId;
        boolean mentionsBot = mentioned;
        if (direct) {
            threadId = inThread ? threadTs : null;
        } else {
            threadId = inThread ? threadTs : ts;
            boolean engaged = inThread && (bot.userId().equals(Json.str(event, "parent_user_id"))
                    || engagedThread.test(SlackChannel.threadKey(channel, threadTs)));
            if (requireMention && !mentioned && !engaged) {
                return new Conversion.Ignored("channel message without a mention");
            }
            mentionsBot = mentioned || engaged;
        }
        String text = SlackText.inbound(raw, bot.userId());
        List<Attachment> files = attachments(event);
        if (text.isEmpty() && files.isEmpty()) {
            return new Conversion.Ignored("empty message");
        }
        return new Conversion.Accepted(
                new InboundDraft(channel, threadId, user, null, text, files, ts, direct, mentionsBot, team, false));
    }

    /** The workspace: the envelope's {@code team_id}, else the event's {@code team}; null when neither is there. */
    private static String teamOf(JsonObject payload, JsonObject event) {
        String team = Json.str(payload, "team_id");
        return team != null ? team : Json.str(event, "team");
    }

    /** {@code im} is a DM; {@code channel}, {@code group} and {@code mpim} are groups. */
    static boolean isDirect(String channelType, String channelId) {
        if (channelType != null) {
            return "im".equals(channelType);
        }
        return channelId.startsWith("D");
    }

    private static List<Attachment> attachments(JsonObject event) {
        JsonElement files = event.get("files");
        if (files == null || !files.isJsonArray()) {
            return List.of();
        }
        List<Attachment> out = new ArrayList<>();
        for (JsonElement element : (JsonArray) files) {
            JsonObject file = Json.asObject(element);
            if (file != null) {
                out.add(attachment(file));
            }
        }
        return out;
    }

    /**
     * One of the event's files (docs/behaviour.md §15.1): name, type, size, and {@code url_private_download}
     * (else {@code url_private}) as the reference, fetched with the bot token. A file Slack lists without a
     * URL (a hidden or external one) cannot be fetched.
     */
    private static Attachment attachment(JsonObject file) {
        String mimetype = Json.str(file, "mimetype");
        String url = Json.str(file, "url_private_download");
        if (url == null) {
            url = Json.str(file, "url_private");
        }
        JsonElement size = file.get("size");
        long bytes = size != null && size.isJsonPrimitive() && size.getAsJsonPrimitive().isNumber() ? size.getAsLong() : -1;
        String kind = "slack_audio".equals(Json.str(file, "subtype")) ? "voice" : kindOf(mimetype);
        return new Attachment(kind, Json.str(file, "name"), mimetype, bytes, url);
    }

    private static String kindOf(String mimetype) {
        if (mimetype == null) {
            return "file";
        }
        for (String kind : List.of("image", "video", "audio")) {
            if (mimetype.startsWith(kind + "/")) {
                return kind;
            }
        }
        return "file";
    }
}
