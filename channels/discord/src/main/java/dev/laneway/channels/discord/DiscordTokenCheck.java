package dev.laneway.channels.discord;

import dev.laneway.core.LiveCheck;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import net.dv8tion.jda.api.exceptions.ParsingException;
import net.dv8tion.jda.api.utils.data.DataObject;

/**
 * Asks Discord's REST API at {@code channels.discord.apiUrl} whether it accepts a bot token
 * ({@code GET /users/@me}), for {@code laneway doctor} and {@code laneway init} (docs/configuration.md
 * §18.2). The JDK client, not JDA: JDA cannot check a token without logging in to the gateway.
 * Stateless; what the server says is masked.
 */
public final class DiscordTokenCheck {

    private static final String FIX_TOKEN = "copy the bot's token from the Developer Portal (your application, Bot,"
            + " Reset Token) into DISCORD_BOT_TOKEN";

    private DiscordTokenCheck() {
    }

    public static LiveCheck check(URI apiUrl, String token, Duration timeout) {
        if (token == null || token.isBlank()) {
            return LiveCheck.failed("no token", FIX_TOKEN);
        }
        String root = apiUrl.toString().replaceAll("/+$", "");
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
        try (http) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(root + "/users/@me"))
                    .header("Authorization", "Bot " + token.strip()).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            DataObject body = parse(response.body());
            if (response.statusCode() == 200) {
                if (!body.getBoolean("bot", false)) {
                    return LiveCheck.failed("the token is not a bot's (users/@me is not a bot account)", FIX_TOKEN);
                }
                return LiveCheck.passed("accepted: the bot " + body.getString("username", "?") + " (id "
                        + body.getString("id", "?") + ")");
            }
            String said = LiveCheck.mask(body.getString("message", ""), token);
            if (response.statusCode() == 401 || response.statusCode() == 403) {
                return LiveCheck.failed("Discord refused the token (" + response.statusCode()
                        + (said.isEmpty() ? "" : " " + said) + ")", FIX_TOKEN);
            }
            return LiveCheck.failed("users/@me at " + root + " answered HTTP " + response.statusCode()
                    + (said.isEmpty() ? "" : " (" + said + ")"), "try again later; if it stays, check"
                    + " channels.discord.apiUrl (default https://discord.com/api/v10)");
        } catch (HttpTimeoutException e) {
            return LiveCheck.failed("no answer from " + root + " within " + timeout.toSeconds() + "s",
                    "check the network and channels.discord.apiUrl");
        } catch (IOException e) {
            return LiveCheck.failed("cannot reach " + root + " (" + LiveCheck.mask(LiveCheck.reason(e), token) + ")",
                    "check the network and channels.discord.apiUrl");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return LiveCheck.failed("interrupted", "run it again");
        }
    }

    private static DataObject parse(String body) {
        try {
            return DataObject.fromJson(body == null || body.isEmpty() ? "{}" : body);
        } catch (ParsingException e) {
            return DataObject.empty();
        }
    }
}
