package dev.laneway.channels.discord;

import java.util.List;
import net.dv8tion.jda.api.utils.data.DataArray;
import net.dv8tion.jda.api.utils.data.DataObject;

/**
 * Discord API objects as the fake server sends them: a user, a guild with its roles, channels and
 * a thread, messages and slash-command interactions. Only the fields JDA reads are filled in.
 */
final class DiscordJson {

    static final String BOT_ID = "1000";
    static final String APP_ID = "1001";
    static final String GUILD_ID = "2000";
    /** A second server, on shard 1 of 2 ((id >> 22) % 2 == 1), with one text channel. */
    static final String GUILD_2 = Long.toString(1L << 22);
    static final String GUILD_2_CHANNEL = Long.toString((1L << 22) + 1);
    static final String TEXT_CHANNEL = "2001";
    static final String THREAD = "2002";
    static final String BOT_ROLE = "2100";
    static final String ADMIN_ROLE = "2101";
    static final String ALICE = "3000";
    static final String BOB_ADMIN = "3001";
    static final String OTHER_BOT = "3002";
    static final String CAROL = "3003";

    private static final long DISCORD_EPOCH_MS = 1_420_070_400_000L;
    private static final java.util.concurrent.atomic.AtomicLong SNOWFLAKE_SEQ = new java.util.concurrent.atomic.AtomicLong();

    /** VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY: what everyone may do, nothing admin. */
    private static final String EVERYONE_PERMISSIONS = Long.toString(1024 + 2048 + 65536);
    private static final String TIMESTAMP = "2026-01-01T00:00:00.000000+00:00";

    private DiscordJson() {
    }

    /** An id minted now: JDA refuses to answer an interaction whose id says it is over 15 minutes old. */
    static String snowflakeNow() {
        long millis = System.currentTimeMillis() - DISCORD_EPOCH_MS;
        return Long.toString((millis << 22) | (SNOWFLAKE_SEQ.incrementAndGet() & 0xFFF));
    }

    static DataObject user(String id, String name, boolean bot) {
        return DataObject.empty().put("id", id).put("username", name).put("discriminator", "0")
                .put("global_name", name).put("avatar", null).put("bot", bot).put("system", false)
                .put("mfa_enabled", false).put("verified", true);
    }

    static DataObject bot() {
        return user(BOT_ID, "laneway", true);
    }

    static DataObject userFor(String id) {
        return switch (id) {
            case ALICE -> user(ALICE, "alice", false);
            case BOB_ADMIN -> user(BOB_ADMIN, "bob", false);
            case OTHER_BOT -> user(OTHER_BOT, "otherbot", true);
            case CAROL -> user(CAROL, "carol", false);
            case BOT_ID -> bot();
            default -> user(id, "user" + id, false);
        };
    }

    /** A guild member; Bob holds the Manage Server role, the bot the Administrator role. */
    static DataObject member(String userId, boolean withUser) {
        DataArray roles = DataArray.empty();
        if (userId.equals(BOB_ADMIN)) {
            roles.add(ADMIN_ROLE);
        } else if (userId.equals(BOT_ID)) {
            roles.add(BOT_ROLE);
        }
        DataObject member = DataObject.empty().put("roles", roles).put("joined_at", TIMESTAMP).put("nick", null)
                .put("deaf", false).put("mute", false).put("flags", 0).put("pending", false)
                .put("premium_since", null).put("avatar", null).put("communication_disabled_until", null);
        return withUser ? member.put("user", userFor(userId)) : member;
    }

    static DataObject ready(String resumeUrl) {
        return ready(resumeUrl, List.of(GUILD_ID));
    }

    /** The guilds a connection identified as shard {@code shard} of {@code total} receives. */
    static List<DataObject> guildsOnShard(int shard, int total) {
        List<DataObject> guilds = new java.util.ArrayList<>();
        guilds.add(guild());
        if (total >= 2) {
            guilds.add(secondGuild());
        }
        return guilds.stream().filter(guild -> (Long.parseLong(guild.getString("id")) >> 22) % total == shard).toList();
    }

    static DataObject ready(String resumeUrl, List<String> guildIds) {
        DataArray guilds = DataArray.empty();
        guildIds.forEach(id -> guilds.add(DataObject.empty().put("id", id).put("unavailable", true)));
        return DataObject.empty().put("v", 10).put("user", bot()).put("session_id", "session-1")
                .put("resume_gateway_url", resumeUrl)
                .put("guilds", guilds)
                .put("private_channels", DataArray.empty())
                .put("application", DataObject.empty().put("id", APP_ID).put("flags", 0))
                .put("_trace", DataArray.empty().add("fake-gateway"));
    }

    static DataObject guild() {
        return DataObject.empty().put("id", GUILD_ID).put("name", "Test Server").put("owner_id", "9999")
                .put("preferred_locale", "en-US").put("icon", null).put("splash", null).put("banner", null)
                .put("description", null).put("vanity_url_code", null).put("afk_timeout", 300)
                .put("verification_level", 0).put("default_message_notifications", 0).put("explicit_content_filter", 0)
                .put("mfa_level", 0).put("nsfw_level", 0).put("premium_tier", 0).put("premium_subscription_count", 0)
                .put("system_channel_flags", 0).put("max_members", 1000).put("max_presences", 1000)
                .put("premium_progress_bar_enabled", false).put("member_count", 3).put("large", false)
                .put("unavailable", false).put("joined_at", TIMESTAMP)
                .put("roles", DataArray.empty()
                        .add(role(GUILD_ID, "@everyone", 0, EVERYONE_PERMISSIONS))
                        .add(role(BOT_ROLE, "laneway", 1, "8")
                                .put("managed", true).put("tags", DataObject.empty().put("bot_id", BOT_ID)))
                        .add(role(ADMIN_ROLE, "moderators", 2, "32")))
                .put("channels", DataArray.empty().add(textChannel()))
                .put("threads", DataArray.empty().add(thread()))
                .put("members", DataArray.empty().add(member(BOT_ID, true)))
                .put("emojis", DataArray.empty()).put("stickers", DataArray.empty())
                .put("voice_states", DataArray.empty()).put("presences", DataArray.empty())
                .put("guild_scheduled_events", DataArray.empty()).put("features", DataArray.empty())
                .put("soundboard_sounds", DataArray.empty());
    }

    /** {@link #GUILD_2}: the test guild's shape with its own ids, one text channel and no thread. */
    static DataObject secondGuild() {
        return guild().put("id", GUILD_2).put("name", "Second Server")
                .put("roles", DataArray.empty().add(role(GUILD_2, "@everyone", 0, EVERYONE_PERMISSIONS)))
                .put("channels", DataArray.empty().add(textChannel().put("id", GUILD_2_CHANNEL).put("guild_id", GUILD_2)))
                .put("threads", DataArray.empty())
                .put("members", DataArray.empty().add(member(BOT_ID, true).put("roles", DataArray.empty())));
    }

    private static DataObject role(String id, String name, int position, String permissions) {
        return DataObject.empty().put("id", id).put("name", name).put("color", 0).put("hoist", false)
                .put("colors", DataObject.empty().put("primary_color", 0).put("secondary_color", null).put("tertiary_color", null))
                .put("position", position).put("permissions", permissions).put("managed", false)
                .put("mentionable", false).put("icon", null).put("unicode_emoji", null).put("flags", 0);
    }

    private static DataObject textChannel() {
        return DataObject.empty().put("id", TEXT_CHANNEL).put("type", 0).put("guild_id", GUILD_ID)
                .put("name", "general").put("position", 0).put("parent_id", null).put("topic", null)
                .put("nsfw", false).put("last_message_id", null).put("rate_limit_per_user", 0)
                .put("permission_overwrites", DataArray.empty());
    }

    private static DataObject thread() {
        DataObject metadata = DataObject.empty().put("archived", false).put("auto_archive_duration", 1440)
                .put("archive_timestamp", TIMESTAMP).put("locked", false).put("invitable", true)
                .put("create_timestamp", TIMESTAMP);
        return DataObject.empty().put("id", THREAD).put("type", 11).put("guild_id", GUILD_ID)
                .put("parent_id", TEXT_CHANNEL).put("owner_id", ALICE).put("name", "a thread")
                .put("member_count", 2).put("message_count", 0).put("total_message_sent", 0)
                .put("rate_limit_per_user", 0).put("flags", 0).put("thread_metadata", metadata);
    }

    /** A message; {@code guildId} null for a DM. {@code mentions} are user ids. */
    static DataObject message(String id, String channelId, String guildId, String authorId, String content,
                              List<String> mentions, DataObject referenced) {
        return message(id, channelId, guildId, authorId, content, mentions, List.of(), referenced);
    }

    /** A message that also mentions the roles {@code roleMentions} (ids). */
    static DataObject message(String id, String channelId, String guildId, String authorId, String content,
                              List<String> mentions, List<String> roleMentions, DataObject referenced) {
        DataArray mentionedRoles = DataArray.empty();
        roleMentions.forEach(mentionedRoles::add);
        DataArray mentioned = DataArray.empty();
        mentions.forEach(userId -> mentioned.add(userFor(userId)));
        DataObject message = DataObject.empty().put("id", id).put("type", referenced == null ? 0 : 19)
                .put("channel_id", channelId).put("author", userFor(authorId)).put("content", content)
                .put("timestamp", TIMESTAMP).put("edited_timestamp", null).put("tts", false)
                .put("mention_everyone", false).put("mentions", mentioned).put("mention_roles", mentionedRoles)
                .put("attachments", DataArray.empty()).put("embeds", DataArray.empty()).put("pinned", false)
                .put("flags", 0).put("components", DataArray.empty());
        if (guildId != null) {
            message.put("guild_id", guildId).put("member", member(authorId, false));
        }
        if (referenced != null) {
            message.put("referenced_message", referenced).put("message_reference", DataObject.empty()
                    .put("type", 0).put("message_id", referenced.getString("id"))
                    .put("channel_id", channelId).put("guild_id", guildId));
        }
        return message;
    }

    /** A slash command in a guild channel (or thread) by {@code userId}. */
    static DataObject guildInteraction(String id, String channelId, String userId, String command, DataArray options) {
        boolean thread = channelId.equals(THREAD);
        DataObject channel = thread ? thread() : textChannel();
        DataObject member = member(userId, true).put("permissions", userId.equals(BOB_ADMIN) ? "32" : EVERYONE_PERMISSIONS);
        return interaction(id, channelId, command, options)
                .put("guild_id", GUILD_ID).put("channel", channel).put("member", member).put("context", 0)
                .put("guild", DataObject.empty().put("id", GUILD_ID).put("locale", "en-US").put("features", DataArray.empty()))
                .put("authorizing_integration_owners", DataObject.empty().put("0", GUILD_ID));
    }

    /** A slash command in the bot's DM with {@code userId}. */
    static DataObject dmInteraction(String id, String userId, String command) {
        String channelId = FakeDiscordRest.dmChannel(userId);
        DataObject channel = DataObject.empty().put("id", channelId).put("type", 1).put("last_message_id", null)
                .put("recipients", DataArray.empty().add(userFor(userId)));
        return interaction(id, channelId, command, DataArray.empty())
                .put("user", userFor(userId)).put("channel", channel).put("context", 1)
                .put("authorizing_integration_owners", DataObject.empty().put("0", "0"));
    }

    private static DataObject interaction(String id, String channelId, String command, DataArray options) {
        DataObject data = DataObject.empty().put("id", "5" + command.length()).put("name", command).put("type", 1)
                .put("options", options);
        return DataObject.empty().put("id", id).put("application_id", APP_ID).put("type", 2).put("version", 1)
                .put("token", "itoken-" + id).put("channel_id", channelId).put("locale", "en-US")
                .put("guild_locale", "en-US").put("app_permissions", "8").put("entitlements", DataArray.empty())
                .put("data", data);
    }

    static DataObject option(String name, int type, Object value) {
        return DataObject.empty().put("name", name).put("type", type).put("value", value);
    }

    /** What the fake answers to a created message. */
    static DataObject createdMessage(String id, String channelId, DataObject body) {
        return message(id, channelId, null, BOT_ID, body.getString("content", ""), List.of(), null)
                .put("flags", body.getInt("flags", 0));
    }
}
