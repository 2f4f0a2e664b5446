package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.laneway.core.Attachment;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.channel.FileLocation;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.testing.ScriptedAgent;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Slack files reach the agent with a way to fetch them (docs/behaviour.md §15.1): name, type, size and
 * {@code url_private_download}, which {@code locate} fetches with the bot token (never shareable); a
 * {@code file_share} without text is a real message.
 */
class SlackFilesTest {

    @Test
    void aFileShareWithoutText_reachesTheAgent_andIsFetchedWithTheBotToken() throws Exception {
        byte[] csv = "a,b\n1,2\n".getBytes(StandardCharsets.UTF_8);
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            rig.api.user("U1", "Ann", false);
            rig.api.files.serve("T1-F1/data.csv", csv, "text/csv");
            JsonObject event = dm("U1", "D1", "", ts());
            event.addProperty("subtype", "file_share");
            JsonObject file = new JsonObject();
            file.addProperty("id", "F1");
            file.addProperty("name", "data.csv");
            file.addProperty("mimetype", "text/csv");
            file.addProperty("size", csv.length);
            file.addProperty("url_private", rig.api.urlPrivate("T1-F1/data.csv?view"));
            file.addProperty("url_private_download", rig.api.urlPrivate("T1-F1/data.csv"));
            JsonArray files = new JsonArray();
            files.add(file);
            event.add("files", files);
            rig.deliver(eventsApi(newEnvelopeId(), event));

            ScriptedAgent.ScriptedRun run = rig.awaitRun(0);
            Attachment expected = new Attachment("file", "data.csv", "text/csv", csv.length,
                    rig.api.urlPrivate("T1-F1/data.csv"));
            assertEquals("[file: data.csv (text/csv, 8 B)]", run.prompt());
            assertEquals(List.of(new MessageFiles("slack", List.of(expected))), run.request().files());

            FileLocation location = rig.channel.locate(expected);
            assertFalse(location.shareable(), "url_private needs the token");
            HttpRequest.Builder get = HttpRequest.newBuilder(location.url());
            location.headers().forEach(get::header);
            HttpResponse<byte[]> got = HttpClient.newHttpClient().send(get.build(), HttpResponse.BodyHandlers.ofByteArray());
            assertArrayEquals(csv, got.body());
            assertEquals("Bearer xoxb-test-bot", rig.api.files.requests().get(0).authorization());
            assertFalse(location.toString().contains("xoxb"), "never printed");
            run.complete("two rows");
        }
    }
}
