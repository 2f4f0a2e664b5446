package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.laneway.core.LiveCheck;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Asks Slack's Web API at {@code channels.slack.apiUrl} whether it accepts the two tokens, for
 * {@code laneway doctor} and {@code laneway init} (docs/configuration.md §18.2): the bot token with
 * {@code auth.test}, the app-level token with {@code apps.connections.open} (which only hands out a
 * Socket Mode URL; nothing connects to it). Stateless; what Slack says is masked.
 */
public final class SlackTokenCheck {

    private static final String FIX_BOT = "copy the Bot User OAuth Token (xoxb-...) from your app's OAuth &"
            + " Permissions page into SLACK_BOT_TOKEN";
    private static final String FIX_APP = "create an app-level token with the connections:write scope (Basic"
            + " Information, App-Level Tokens; xapp-...) and put it into SLACK_APP_TOKEN";

    private SlackTokenCheck() {
    }

    /** The bot token ({@code auth.test}). */
    public static LiveCheck botToken(URI apiUrl, String token, Duration timeout) {
        if (token == null || token.isBlank()) {
            return LiveCheck.failed("no token", FIX_BOT);
        }
        return call(apiUrl, "auth.test", token, timeout, FIX_BOT, body -> "accepted: the bot user "
                + Json.str(body, "user_id") + " in " + describeTeam(body));
    }

    /** The app-level token ({@code apps.connections.open}). */
    public static LiveCheck appToken(URI apiUrl, String token, Duration timeout) {
        if (token == null || token.isBlank()) {
            return LiveCheck.failed("no token", FIX_APP);
        }
        return call(apiUrl, "apps.connections.open", token, timeout, FIX_APP,
                body -> "accepted: Socket Mode is open to this app");
    }

    private static LiveCheck call(URI apiUrl, String method, String token, Duration timeout, String fix,
                                  java.util.function.Function<JsonObject, String> accepted) {
        String prefix = apiUrl.toString().endsWith("/") ? apiUrl.toString() : apiUrl + "/";
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
        try (http) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(prefix + method))
                    .header("Authorization", "Bearer " + token.strip())
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .timeout(timeout).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonObject body = parse(response.body());
            if (response.statusCode() == 200 && body.has("ok") && body.get("ok").getAsBoolean()) {
                return LiveCheck.passed(accepted.apply(body));
            }
            String error = LiveCheck.mask(Json.str(body, "error"), token);
            if (response.statusCode() == 200 && !error.isEmpty()) {
                return LiveCheck.failed("Slack refused it (" + method + ": " + error + ")", fix);
            }
            return LiveCheck.failed(method + " at " + prefix + " answered HTTP " + response.statusCode(),
                    "try again later; if it stays, check channels.slack.apiUrl (default https://slack.com/api/)");
        } catch (HttpTimeoutException e) {
            return LiveCheck.failed("no answer from " + prefix + " within " + timeout.toSeconds() + "s",
                    "check the network and channels.slack.apiUrl");
        } catch (IOException e) {
            return LiveCheck.failed("cannot reach " + prefix + " (" + LiveCheck.mask(LiveCheck.reason(e), token) + ")",
                    "check the network and channels.slack.apiUrl");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return LiveCheck.failed("interrupted", "run it again");
        }
    }

    private static String describeTeam(JsonObject body) {
        String team = Json.str(body, "team");
        String id = Json.str(body, "team_id");
        return team != null ? "workspace " + team : id != null ? "workspace " + id : "the workspace";
    }

    private static JsonObject parse(String body) {
        try {
            JsonObject parsed = Json.asObject(JsonParser.parseString(body == null ? "" : body));
            return parsed == null ? new JsonObject() : parsed;
        } catch (JsonParseException e) {
            return new JsonObject();
        }
    }
}
