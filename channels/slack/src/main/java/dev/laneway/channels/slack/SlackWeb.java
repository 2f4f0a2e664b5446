package dev.laneway.channels.slack;

import com.slack.api.methods.MethodsClient;
import com.slack.api.methods.SlackApiException;
import com.slack.api.methods.SlackApiTextResponse;
import com.slack.api.methods.response.auth.AuthTestResponse;
import com.slack.api.methods.response.chat.ChatPostMessageResponse;
import com.slack.api.methods.response.users.UsersInfoResponse;
import com.slack.api.model.User;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Web API calls the channel makes with the bot token, each turning Slack's {@code ok:false}
 * into an error that names the method and Slack's error code. {@code chat.postMessage} honours
 * 429 + {@code Retry-After} per Slack channel through {@link RetryAfterGate} and retries a bounded
 * number of times. Safe for concurrent use: it holds no mutable state of its own.
 */
final class SlackWeb {

    private static final Logger log = LoggerFactory.getLogger(SlackWeb.class);

    private final MethodsClient methods;
    private final RetryAfterGate gate;
    private final int maxSendAttempts;

    SlackWeb(MethodsClient methods, RetryAfterGate gate, int maxSendAttempts) {
        if (maxSendAttempts < 1) {
            throw new IllegalArgumentException("maxSendAttempts must be >= 1, got " + maxSendAttempts);
        }
        this.methods = methods;
        this.gate = gate;
        this.maxSendAttempts = maxSendAttempts;
    }

    /** Who the bot token belongs to; fails with Slack's error code when the token is refused. */
    BotIdentity authTest() throws IOException, SlackApiException {
        AuthTestResponse response = methods.authTest(r -> r);
        if (!response.isOk() || response.getUserId() == null) {
            throw new IllegalStateException("Slack auth.test with channels.slack.botToken failed: "
                    + (response.getError() != null ? response.getError() : "no user_id in the answer"));
        }
        return new BotIdentity(response.getUserId(), response.getBotId(), response.getTeamId());
    }

    /** Posts {@code mrkdwn} to {@code channel} (in {@code threadTs} when not null); returns its ts. */
    String postMessage(String channel, String threadTs, String mrkdwn) throws Exception {
        for (int attempt = 1; ; attempt++) {
            gate.awaitTurn(channel);
            try {
                ChatPostMessageResponse response = methods.chatPostMessage(r -> r
                        .channel(channel).threadTs(threadTs).text(mrkdwn).mrkdwn(true));
                return check("chat.postMessage", channel, response).getTs();
            } catch (SlackApiException e) {
                if (e.getResponse().code() != 429) {
                    throw e;
                }
                Duration wait = RetryAfterGate.retryAfter(e.getResponse().header("Retry-After"));
                gate.pause(channel, wait);
                if (attempt >= maxSendAttempts) {
                    throw new IOException("chat.postMessage to Slack channel " + channel + " still rate limited after "
                            + attempt + " attempts (Retry-After " + wait.toSeconds() + " s)", e);
                }
                log.warn("chat.postMessage to Slack channel {} rate limited (429); retrying after {} s",
                        channel, wait.toSeconds());
            }
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
        UsersInfoResponse response = methods.usersInfo(r -> r.user(userId));
        return check("users.info", userId, response).getUser();
    }

    private static String reactionCall(ApiCall call, String harmless) {
        try {
            SlackApiTextResponse response = call.run();
            return response.isOk() || harmless.equals(response.getError()) ? null : response.getError();
        } catch (SlackApiException e) {
            return "HTTP " + e.getResponse().code();
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static <T extends SlackApiTextResponse> T check(String method, String target, T response) {
        if (!response.isOk()) {
            throw new IllegalStateException(method + " for " + target + " failed: " + response.getError());
        }
        return response;
    }

    @FunctionalInterface
    private interface ApiCall {
        SlackApiTextResponse run() throws IOException, SlackApiException;
    }
}
