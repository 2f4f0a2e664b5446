package dev.laneway.channels.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The JSON the {@link FakeBotApi} answers with, shaped as the real Bot API shapes it. Pure. */
final class BotApiAnswers {

    private BotApiAnswers() {
    }

    static ObjectNode ok(JsonNode result) {
        ObjectNode response = Tg.JSON.createObjectNode();
        response.put("ok", true);
        response.set("result", result);
        return response;
    }

    static ObjectNode error(int code, String description, int retryAfter) {
        ObjectNode response = Tg.JSON.createObjectNode();
        response.put("ok", false).put("error_code", code).put("description", description);
        if (retryAfter > 0) {
            response.putObject("parameters").put("retry_after", retryAfter);
        }
        return response;
    }

    /** {@code getMe}: the bot itself. */
    static ObjectNode me() {
        return Tg.BOT.json().put("can_join_groups", true).put("can_read_all_group_messages", false)
                .put("supports_inline_queries", false);
    }

    /** The message a {@code sendMessage} to {@code chatId} created. */
    static ObjectNode sentMessage(long chatId, int messageId, String text) {
        ObjectNode chat = chatId < 0 ? Tg.groupChat(chatId, "Team", false)
                : Tg.privateChat(new Tg.Person(chatId, "User", null, false));
        ObjectNode message = Tg.message(messageId, chat, Tg.BOT, null);
        message.put("text", text);
        return message;
    }

    /** {@code getChatAdministrators}: the first person is the creator, the others administrators. */
    static ArrayNode administrators(List<Tg.Person> people) {
        ArrayNode result = Tg.JSON.createArrayNode();
        for (int i = 0; i < people.size(); i++) {
            ObjectNode member = result.addObject();
            member.put("status", i == 0 ? "creator" : "administrator").put("is_anonymous", false);
            member.set("user", people.get(i).json());
            if (i > 0) {
                member.put("can_be_edited", false).put("can_manage_chat", true).put("can_delete_messages", true)
                        .put("can_manage_video_chats", true).put("can_restrict_members", true)
                        .put("can_promote_members", false).put("can_change_info", true).put("can_invite_users", true)
                        .put("can_post_stories", false).put("can_edit_stories", false).put("can_delete_stories", false);
            }
        }
        return result;
    }
}
