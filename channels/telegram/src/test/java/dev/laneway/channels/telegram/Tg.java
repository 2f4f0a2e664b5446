package dev.laneway.channels.telegram;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.telegram.telegrambots.meta.api.objects.Update;

/**
 * Bot API JSON as the real server writes it: {@code is_bot} on every user, dates in seconds,
 * {@code bot_command} and {@code mention} entities computed from the text. Used by the fake server
 * and, through {@link #update}, by unit tests that need SDK objects.
 */
final class Tg {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Person BOT = new Person(7000, "Laneway", "LanewayBot", true);
    static final Person ANN = new Person(101, "Ann", "ann", false);
    static final Person BOB = new Person(102, "Bob", "bob", false);
    static final Person OTHER_BOT = new Person(7001, "Other", "OtherBot", true);
    static final long GROUP = -1001234567890L;
    static final long FORUM = -1009876543210L;

    private static final Pattern COMMAND = Pattern.compile("^/\\w+(@\\w+)?");
    private static final Pattern MENTION = Pattern.compile("(?<![\\w@])@\\w+");

    private Tg() {
    }

    /** A Telegram user. */
    record Person(long id, String firstName, String username, boolean bot) {
        ObjectNode json() {
            ObjectNode user = JSON.createObjectNode();
            user.put("id", id).put("is_bot", bot).put("first_name", firstName);
            if (username != null) {
                user.put("username", username);
            }
            return user;
        }
    }

    static ObjectNode privateChat(Person person) {
        ObjectNode chat = JSON.createObjectNode();
        chat.put("id", person.id()).put("type", "private").put("first_name", person.firstName());
        if (person.username() != null) {
            chat.put("username", person.username());
        }
        return chat;
    }

    static ObjectNode groupChat(long id, String title, boolean forum) {
        ObjectNode chat = JSON.createObjectNode();
        chat.put("id", id).put("type", "supergroup").put("title", title);
        if (forum) {
            chat.put("is_forum", true);
        }
        return chat;
    }

    /** A text message with the entities the real server would attach. */
    static ObjectNode message(int messageId, ObjectNode chat, Person from, String text) {
        ObjectNode message = JSON.createObjectNode();
        message.put("message_id", messageId).put("date", Instant.now().getEpochSecond());
        message.set("from", from.json());
        message.set("chat", chat);
        if (text != null) {
            message.put("text", text);
            ArrayNode entities = entities(text);
            if (!entities.isEmpty()) {
                message.set("entities", entities);
            }
        }
        return message;
    }

    /** A photo, with an optional caption. */
    static ObjectNode photo(int messageId, ObjectNode chat, Person from, String caption) {
        ObjectNode message = message(messageId, chat, from, null);
        ArrayNode sizes = message.putArray("photo");
        sizes.addObject().put("file_id", "p1").put("file_unique_id", "u1").put("width", 90).put("height", 90);
        if (caption != null) {
            message.put("caption", caption);
            ArrayNode entities = entities(caption);
            if (!entities.isEmpty()) {
                message.set("caption_entities", entities);
            }
        }
        return message;
    }

    /** A sticker: a part that is no file the bot reads (it gets the "text and files" notice). */
    static ObjectNode sticker(int messageId, ObjectNode chat, Person from) {
        ObjectNode message = message(messageId, chat, from, null);
        message.putObject("sticker").put("file_id", "s1").put("file_unique_id", "su1").put("type", "regular")
                .put("width", 512).put("height", 512).put("is_animated", false).put("is_video", false);
        return message;
    }

    /** A document with an optional caption (docs/behaviour.md §15.1). */
    static ObjectNode document(int messageId, ObjectNode chat, Person from, String fileId, String name, String type,
                               long size, String caption) {
        ObjectNode message = message(messageId, chat, from, null);
        message.putObject("document").put("file_id", fileId).put("file_unique_id", "u-" + fileId)
                .put("file_name", name).put("mime_type", type).put("file_size", size);
        if (caption != null) {
            message.put("caption", caption);
        }
        return message;
    }

    /** A voice note without a caption. */
    static ObjectNode voice(int messageId, ObjectNode chat, Person from, String fileId, long size) {
        ObjectNode message = message(messageId, chat, from, null);
        message.putObject("voice").put("file_id", fileId).put("file_unique_id", "u-" + fileId).put("duration", 3)
                .put("mime_type", "audio/ogg").put("file_size", size);
        return message;
    }

    /** Makes {@code message} a message in forum topic {@code threadId}. */
    static ObjectNode inTopic(ObjectNode message, int threadId) {
        message.put("message_thread_id", threadId).put("is_topic_message", true);
        // as in real forums, the message replies to the topic's creation message
        ObjectNode created = message(threadId, (ObjectNode) message.get("chat").deepCopy(), ANN, null);
        created.putObject("forum_topic_created").put("name", "Topic").put("icon_color", 7322096);
        message.set("reply_to_message", created);
        return message;
    }

    /** Makes {@code message} a reply to an earlier message by {@code author}. */
    static ObjectNode replyTo(ObjectNode message, int repliedId, Person author, String repliedText) {
        message.set("reply_to_message", message(repliedId, (ObjectNode) message.get("chat").deepCopy(), author,
                repliedText));
        return message;
    }

    static ArrayNode entities(String text) {
        ArrayNode entities = JSON.createArrayNode();
        Matcher command = COMMAND.matcher(text);
        if (command.find()) {
            entities.addObject().put("type", "bot_command").put("offset", 0).put("length", command.end());
        }
        Matcher mention = MENTION.matcher(text);
        while (mention.find()) {
            entities.addObject().put("type", "mention").put("offset", mention.start())
                    .put("length", mention.end() - mention.start());
        }
        return entities;
    }

    static ObjectNode update(int updateId, String kind, ObjectNode message) {
        ObjectNode update = JSON.createObjectNode();
        update.put("update_id", updateId);
        update.set(kind, message);
        return update;
    }

    /** The SDK's object for an update, parsed as the SDK parses it. */
    static Update sdkUpdate(int updateId, String kind, ObjectNode message) {
        try {
            return JSON.treeToValue(update(updateId, kind, message), Update.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static Update sdkUpdate(int updateId, ObjectNode message) {
        return sdkUpdate(updateId, "message", message);
    }
}
