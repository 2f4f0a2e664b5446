package dev.laneway.channels.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.core.LiveCheck;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Asks the Bot API at {@code channels.telegram.apiUrl} whether it accepts a bot token ({@code getMe}),
 * for {@code laneway doctor} and {@code laneway init} (docs/configuration.md §18.2). The request URL
 * holds the token, so nothing here quotes it; what the server says is masked. Stateless.
 */
public final class TelegramTokenCheck {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FIX_TOKEN = "copy the bot's token from @BotFather (/mybots, API Token) into"
            + " TELEGRAM_BOT_TOKEN";

    private TelegramTokenCheck() {
    }

    public static LiveCheck check(URI apiUrl, String token, Duration timeout) {
        if (token == null || token.isBlank()) {
            return LiveCheck.failed("no token", FIX_TOKEN);
        }
        String root = apiUrl.toString().replaceAll("/+$", "");
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
        try (http) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(root + "/bot" + token.strip()
                    + "/getMe")).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = parse(response.body());
            if (response.statusCode() == 200 && body.path("ok").asBoolean(false)) {
                JsonNode me = body.path("result");
                if (!me.path("is_bot").asBoolean(true) || me.path("username").asText("").isEmpty()) {
                    return LiveCheck.failed("the token is not a bot's (getMe names no bot username)", FIX_TOKEN);
                }
                return LiveCheck.passed("accepted: the bot @" + me.path("username").asText());
            }
            String said = LiveCheck.mask(body.path("description").asText(""), token);
            if (response.statusCode() == 401 || response.statusCode() == 404) {
                return LiveCheck.failed("Telegram refused the token (" + response.statusCode()
                        + (said.isEmpty() ? "" : " " + said) + ")", FIX_TOKEN);
            }
            return LiveCheck.failed("getMe at " + root + " answered HTTP " + response.statusCode()
                    + (said.isEmpty() ? "" : " (" + said + ")"), "try again later; if it stays, check"
                    + " channels.telegram.apiUrl (default https://api.telegram.org)");
        } catch (HttpTimeoutException e) {
            return LiveCheck.failed("no answer from " + root + " within " + timeout.toSeconds() + "s",
                    "check the network and channels.telegram.apiUrl");
        } catch (IOException e) {
            return LiveCheck.failed("cannot reach " + root + " (" + LiveCheck.mask(LiveCheck.reason(e), token) + ")",
                    "check the network and channels.telegram.apiUrl");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return LiveCheck.failed("interrupted", "run it again");
        }
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body == null || body.isEmpty() ? "{}" : body);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }
}
