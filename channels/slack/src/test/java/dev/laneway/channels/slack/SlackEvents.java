package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;

/** Builds Socket Mode envelopes and Slack events as Slack sends them. */
final class SlackEvents {

    private static final AtomicInteger ids = new AtomicInteger();

    private SlackEvents() {
    }

    /** A fresh message ts, increasing across the test run. */
    static String ts() {
        return "1700000000." + String.format("%06d", ids.incrementAndGet());
    }

    static String newEnvelopeId() {
        return "env-" + ids.incrementAndGet();
    }

    static String newEventId() {
        return "Ev" + ids.incrementAndGet();
    }

    /** A {@code message} event in a DM. */
    static JsonObject dm(String user, String channel, String text, String ts) {
        return message(user, channel, "im", text, ts, null);
    }

    /** A {@code message} event in a public channel; {@code threadTs} null for the top level. */
    static JsonObject channelMessage(String user, String channel, String text, String ts, String threadTs) {
        return message(user, channel, "channel", text, ts, threadTs);
    }

    /** An {@code app_mention} event; the text should contain {@code <@UBOT>}. */
    static JsonObject mention(String user, String channel, String text, String ts, String threadTs) {
        JsonObject event = new JsonObject();
        event.addProperty("type", "app_mention");
        event.addProperty("user", user);
        event.addProperty("channel", channel);
        event.addProperty("text", text);
        event.addProperty("ts", ts);
        event.addProperty("event_ts", ts);
        if (threadTs != null) {
            event.addProperty("thread_ts", threadTs);
        }
        return event;
    }

    static JsonObject message(String user, String channel, String channelType, String text, String ts,
                              String threadTs) {
        JsonObject event = new JsonObject();
        event.addProperty("type", "message");
        event.addProperty("user", user);
        event.addProperty("channel", channel);
        event.addProperty("channel_type", channelType);
        event.addProperty("text", text);
        event.addProperty("ts", ts);
        event.addProperty("event_ts", ts);
        if (threadTs != null) {
            event.addProperty("thread_ts", threadTs);
        }
        return event;
    }

    /** The {@code event_callback} payload Slack wraps an event in. */
    static JsonObject callback(JsonObject event, String eventId) {
        JsonObject payload = new JsonObject();
        payload.addProperty("token", "verification-token");
        payload.addProperty("team_id", "T1");
        payload.addProperty("api_app_id", "A1");
        payload.add("event", event);
        payload.addProperty("type", "event_callback");
        payload.addProperty("event_id", eventId);
        payload.addProperty("event_time", 1700000000);
        return payload;
    }

    /** An {@code events_api} envelope; {@code retryAttempt} > 0 marks Slack's redelivery. */
    static String eventsApi(String envelopeId, String eventId, JsonObject event, int retryAttempt) {
        JsonObject envelope = new JsonObject();
        envelope.addProperty("envelope_id", envelopeId);
        envelope.add("payload", callback(event, eventId));
        envelope.addProperty("type", "events_api");
        envelope.addProperty("accepts_response_payload", false);
        envelope.addProperty("retry_attempt", retryAttempt);
        envelope.addProperty("retry_reason", retryAttempt > 0 ? "timeout" : "");
        return envelope.toString();
    }

    static String eventsApi(String envelopeId, JsonObject event) {
        return eventsApi(envelopeId, newEventId(), event, 0);
    }

    /** The slash command payload Slack sends over Socket Mode. */
    static JsonObject slashPayload(String command, String text, String user, String channel) {
        return slashPayload(command, text, user, channel, "https://hooks.slack.com/commands/T1/1/x");
    }

    static JsonObject slashPayload(String command, String text, String user, String channel, String responseUrl) {
        JsonObject payload = new JsonObject();
        payload.addProperty("token", "verification-token");
        payload.addProperty("team_id", "T1");
        payload.addProperty("channel_id", channel);
        payload.addProperty("channel_name", channel.startsWith("D") ? "directmessage" : "general");
        payload.addProperty("user_id", user);
        payload.addProperty("user_name", user.toLowerCase());
        payload.addProperty("command", command);
        payload.addProperty("text", text);
        payload.addProperty("api_app_id", "A1");
        payload.addProperty("response_url", responseUrl);
        payload.addProperty("trigger_id", "trig-" + ids.incrementAndGet());
        return payload;
    }

    static String slashCommand(String envelopeId, String command, String text, String user, String channel,
                               String responseUrl) {
        JsonObject envelope = new JsonObject();
        envelope.addProperty("envelope_id", envelopeId);
        envelope.add("payload", slashPayload(command, text, user, channel, responseUrl));
        envelope.addProperty("type", "slash_commands");
        envelope.addProperty("accepts_response_payload", true);
        return envelope.toString();
    }
}
