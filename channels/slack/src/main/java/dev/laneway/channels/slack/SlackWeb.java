package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import com.slack.api.Slack;
import com.slack.api.methods.MethodsClient;
import com.slack.api.methods.SlackApiException;
import com.slack.api.methods.SlackApiTextResponse;
import com.slack.api.methods.response.auth.AuthTestResponse;
import com.slack.api.methods.response.chat.ChatPostMessageResponse;
import com.slack.api.methods.response.conversations.ConversationsHistoryResponse;
import com.slack.api.methods.response.conversations.ConversationsInfoResponse;
import com.slack.api.methods.response.users.UsersInfoResponse;
import com.slack.api.model.User;
import com.slack.api.webhook.WebhookResponse;
import dev.laneway.core.channel.Redactor;
import dev.laneway.core.channel.RetryAfter;
import dev.laneway.core.channel.SendFailure;
import java.io.IOException;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Web API calls the channel makes with the bot token, each turning Slack's {@code ok:false}
 * into an error that names the method and Slack's error code, plus answers to slash commands
 * through their {@code response_url}. {@code chat.postMessage} is tried once; its failure tells
 * the gateway's outbox what to do ({@link SendFailure}): wait out a 429's {@code Retry-After} for
 * that Slack channel only, try a 5xx or an unreadable answer again, or give up. Every 429 Slack
 * sends, on any call, is reported to {@code rateLimited} (the operators' counter). What Slack says
 * goes through the {@link Redactor} before it is logged or thrown. Safe for concurrent use: it
 * holds no mutable state of its own.
 */
final class SlackWeb {

    private static final Logger log = LoggerFactory.getLogger(SlackWeb.class);

    private final Slack slack;
    private final MethodsClient methods;
    private final InstantSource clock;
    private final Redactor redactor;
    private final Runnable rateLimited;

    /**
     * @param clock       reads a {@code Retry-After} given as an HTTP date
     * @param rateLimited called for every HTTP 429 from Slack (counted for operators)
     */
    SlackWeb(Slack slack, MethodsClient methods, InstantSource clock, Redactor redactor, Runnable rateLimited) {
        this.slack = slack;
        this.methods = methods;
        this.clock = clock;
        this.redactor = redactor;
        this.rateLimited = rateLimited;
    }

    /** What {@code auth.test} says about the bot token: whose it is, and its scopes. */
    record Auth(BotIdentity bot, BotScopes scopes) {
    }

    /** A method Slack refused for lack of an OAuth scope ({@code missing_scope}). */
    static final class MissingScope extends Exception {
        MissingScope(String method, String needed) {
            super("Slack " + method + " needs the scope " + (needed != null ? needed : "(not named)"));
        }
    }

    /** Who the bot token belongs to and what it may do; fails with Slack's error code when the token is refused. */
    Auth authTest() throws IOException, SlackApiException {
        AuthTestResponse response = methods.authTest(r -> r);
        if (!response.isOk() || response.getUserId() == null) {
            throw new IllegalStateException("Slack auth.test with channels.slack.botToken failed: "
                    + (response.getError() != null ? redactor.redact(response.getError()) : "no user_id in the answer"));
        }
        return new Auth(new BotIdentity(response.getUserId(), response.getBotId(), response.getTeamId()),
                BotScopes.fromHeaders(response.getHttpResponseHeaders()));
    }

    /**
     * Posts {@code mrkdwn} to {@code channel} (in {@code threadTs} when not null), once; returns its
     * ts. A failure says what the outbox should do about it.
     */
    String postMessage(String channel, String threadTs, String mrkdwn) throws SendFailure {
        String what = "chat.postMessage to Slack channel " + channel;
        ChatPostMessageResponse response = call(what,
                () -> methods.chatPostMessage(r -> r.channel(channel).threadTs(threadTs).text(mrkdwn).mrkdwn(true)));
        return response.getTs();
    }

    /** Replaces the text of the bot's message {@code ts} ({@code chat.update}), once; failures as for a post. */
    void updateMessage(String channel, String ts, String mrkdwn) throws SendFailure {
        call("chat.update in Slack channel " + channel, () -> methods.chatUpdate(r -> r.channel(channel).ts(ts).text(mrkdwn)));
    }

    /**
     * {@code chat.startStream} in {@code threadTs} of {@code channel} showing {@code markdown} (recipient
     * ids null in a DM); returns the stream's ts. Failures as for a post.
     */
    String startStream(String channel, String threadTs, String userId, String teamId, String markdown)
            throws SendFailure {
        return call("chat.startStream in Slack channel " + channel, () -> methods.chatStartStream(r -> r
                .channel(channel).threadTs(threadTs).recipientUserId(userId).recipientTeamId(teamId)
                .markdownText(markdown))).getTs();
    }

    /** {@code chat.appendStream}: {@code markdown} is added to what the stream {@code ts} shows. */
    void appendStream(String channel, String ts, String markdown) throws SendFailure {
        call("chat.appendStream in Slack channel " + channel,
                () -> methods.chatAppendStream(r -> r.channel(channel).ts(ts).markdownText(markdown)));
    }

    /** {@code chat.stopStream}, with the last {@code markdown} to add (null: none). */
    void stopStream(String channel, String ts, String markdown) throws SendFailure {
        call("chat.stopStream in Slack channel " + channel,
                () -> methods.chatStopStream(r -> r.channel(channel).ts(ts).markdownText(markdown)));
    }

    /** One Web API call whose failure tells the outbox what to do. */
    private <T extends SlackApiTextResponse> T call(String what, ApiCallOf<T> call) throws SendFailure {
        T response;
        try {
            response = call.run();
        } catch (SlackApiException e) {
            int code = e.getResponse() == null ? 0 : e.getResponse().code();
            String detail = what + ": HTTP " + code + " " + redactor.redact(e.getResponseBody());
            if (reportRateLimit(e)) {
                throw SendFailure.rateLimited(RetryAfter.from(e.getResponse().header("Retry-After"),
                        e.getResponseBody(), clock.instant()), detail);
            }
            throw code >= 500 ? SendFailure.unavailable(detail) : SendFailure.refused(detail);
        } catch (IOException e) {
            throw SendFailure.of(e, redactor);
        } catch (RuntimeException e) {
            // the SDK could not read the answer (a proxy's error page, a cut-off body)
            throw SendFailure.unavailable(what + ": unreadable answer: " + redactor.describe(e));
        }
        if (!response.isOk()) {
            throw SendFailure.refused(what + " failed: " + redactor.redact(response.getError()));
        }
        return response;
    }

    @FunctionalInterface
    private interface ApiCallOf<T> {
        T run() throws IOException, SlackApiException;
    }

    /**
     * Answers a slash command through its {@code response_url}: {@code ephemeral} shows it only to
     * the user who typed the command. True when Slack took it; false (logged) otherwise, so the
     * caller can fall back to posting in the channel.
     */
    boolean respond(String responseUrl, String mrkdwn, boolean ephemeral) {
        JsonObject body = new JsonObject();
        body.addProperty("text", mrkdwn);
        body.addProperty("response_type", ephemeral ? "ephemeral" : "in_channel");
        try {
            WebhookResponse response = slack.send(responseUrl, body.toString());
            if (response.getCode() != null && response.getCode() == 429) {
                rateLimited.run();
            }
            if (response.getCode() != null && response.getCode() == 200) {
                return true;
            }
            log.warn("answering a Slack slash command through its response_url failed: HTTP {} {}",
                    response.getCode(), redactor.redact(response.getBody()));
        } catch (IOException | RuntimeException e) {
            log.warn("answering a Slack slash command through its response_url failed: {}", redactor.describe(e));
        }
        return false;
    }

    /**
     * Whether the bot sees {@code channel} as one of its own IMs ({@code conversations.info}, needs
     * {@code im:read} for IMs); false when Slack does not show it the channel at all (a DM between
     * other people).
     */
    boolean isBotIm(String channel) throws IOException, SlackApiException, MissingScope {
        ConversationsInfoResponse response;
        try {
            response = methods.conversationsInfo(r -> r.channel(channel));
        } catch (SlackApiException e) {
            reportRateLimit(e);
            throw redacted("conversations.info", e);
        }
        if (!response.isOk() && "channel_not_found".equals(response.getError())) {
            return false;
        }
        requireScope("conversations.info", response);
        return check("conversations.info", channel, response).getChannel().isIm();
    }

    /**
     * Whether the bot is a member of the IM {@code channel}, by reading at most one message of it
     * ({@code conversations.history}, needs {@code im:history}, which a bot that gets DMs has): Slack
     * lets a bot read only the IMs it is in. The message is not looked at.
     */
    boolean isImMember(String channel) throws IOException, SlackApiException, MissingScope {
        ConversationsHistoryResponse response;
        try {
            response = methods.conversationsHistory(r -> r.channel(channel).limit(1));
        } catch (SlackApiException e) {
            reportRateLimit(e);
            throw redacted("conversations.history", e);
        }
        if (!response.isOk() && ("channel_not_found".equals(response.getError())
                || "not_in_channel".equals(response.getError()))) {
            return false;
        }
        requireScope("conversations.history", response);
        check("conversations.history", channel, response);
        return true;
    }

    private static void requireScope(String method, SlackApiTextResponse response) throws MissingScope {
        if (!response.isOk() && "missing_scope".equals(response.getError())) {
            throw new MissingScope(method, response.getNeeded());
        }
    }

    /** Adds reaction {@code name} to a message; Slack's error code when it failed, null when done. */
    String addReaction(String channel, String ts, String name) {
        return reactionCall(() -> methods.reactionsAdd(r -> r.channel(channel).timestamp(ts).name(name)),
                "already_reacted");
    }

    /** Removes reaction {@code name}; Slack's error code when it failed, null when done. */
    String removeReaction(String channel, String ts, String name) {
        return reactionCall(() -> methods.reactionsRemove(r -> r.channel(channel).timestamp(ts).name(name)),
                "no_reaction");
    }

    /** The user's profile; fails with Slack's error code. */
    User userInfo(String userId) throws IOException, SlackApiException {
        UsersInfoResponse response;
        try {
            response = methods.usersInfo(r -> r.user(userId));
        } catch (SlackApiException e) {
            reportRateLimit(e);
            throw redacted("users.info", e);
        }
        return check("users.info", userId, response).getUser();
    }

    private String reactionCall(ApiCall call, String harmless) {
        try {
            SlackApiTextResponse response = call.run();
            return response.isOk() || harmless.equals(response.getError()) ? null : response.getError();
        } catch (SlackApiException e) {
            reportRateLimit(e);
            return "HTTP " + e.getResponse().code();
        } catch (IOException e) {
            return redactor.describe(e);
        }
    }

    /** Slack's refusal as an exception that keeps nothing unredacted (no cause, a redacted message). */
    private IOException redacted(String method, SlackApiException e) {
        return new IOException(method + " failed: " + redactor.redact(e.getMessage()));
    }

    /** Counts a 429 for operators; true when {@code e} is one. */
    private boolean reportRateLimit(SlackApiException e) {
        if (e.getResponse() == null || e.getResponse().code() != 429) {
            return false;
        }
        try {
            rateLimited.run();
        } catch (RuntimeException failure) {
            log.debug("reporting a Slack rate limit failed: {}", failure.toString());
        }
        return true;
    }

    private <T extends SlackApiTextResponse> T check(String method, String target, T response) {
        if (!response.isOk()) {
            throw new IllegalStateException(method + " for " + target + " failed: " + redactor.redact(response.getError()));
        }
        return response;
    }

    @FunctionalInterface
    private interface ApiCall {
        SlackApiTextResponse run() throws IOException, SlackApiException;
    }
}
