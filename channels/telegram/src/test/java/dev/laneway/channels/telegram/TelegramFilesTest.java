package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Attachment;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.channel.FileLocation;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Telegram files reach the agent with a way to fetch them (docs/behaviour.md §15.1): the message's
 * attachments carry name, type, size and file id; {@code locate} asks the Bot API's {@code getFile} and
 * names the file URL on the same server as {@code apiUrl} (a self-hosted Bot API server serves its own
 * files; here the fake on 127.0.0.1 is that server), which serves the bytes.
 */
class TelegramFilesTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aFileOnlyDocument_reachesTheAgent_andItsContentIsFetchedFromTheConfiguredServer() throws Exception {
        byte[] notes = "# Notes\nship it".getBytes(StandardCharsets.UTF_8);
        try (Rig rig = Rig.start()) {
            rig.api.file("doc-1", "documents/file_7.md");
            rig.api.files().serve("documents/file_7.md", notes, "text/markdown");
            rig.api.push("message", Tg.document(rig.api.nextMessageId(), Tg.privateChat(Tg.ANN), Tg.ANN, "doc-1",
                    "notes.md", "text/markdown", notes.length, null));

            var run = rig.run(0);
            assertEquals("[file: notes.md (text/markdown, 15 B)]", run.prompt());
            Attachment attachment = new Attachment("document", "notes.md", "text/markdown", notes.length, "doc-1");
            assertEquals(List.of(new MessageFiles("telegram", List.of(attachment))), run.request().files());

            FileLocation location = rig.channel.locate(attachment);
            assertEquals(rig.api.url().getHost(), location.url().getHost());
            assertEquals(rig.api.url().getPort(), location.url().getPort());
            assertFalse(location.shareable(), "the URL holds the bot token");
            assertFalse(location.toString().contains(FakeBotApi.TOKEN), "never printed");
            HttpResponse<byte[]> got = HTTP.send(HttpRequest.newBuilder(location.url()).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, got.statusCode());
            assertArrayEquals(notes, got.body());
            run.complete("ok");
        }
    }

    @Test
    void aVoiceNote_isAMessage_andAFileTheServerNoLongerHas_failsWithoutTheToken() throws Exception {
        try (Rig rig = Rig.start()) {
            rig.api.push("message", Tg.voice(rig.api.nextMessageId(), Tg.privateChat(Tg.ANN), Tg.ANN, "gone", 900));
            var run = rig.run(0);
            assertEquals("[file: voice.ogg (audio/ogg, 900 B)]", run.prompt());
            Attachment voice = run.request().files().get(0).attachments().get(0);

            IOException failure = assertThrows(IOException.class, () -> rig.channel.locate(voice));
            assertTrue(failure.getMessage().contains("no path"), failure.getMessage());
            assertFalse(failure.getMessage().contains(FakeBotApi.TOKEN));
            assertThrows(IllegalArgumentException.class, () -> rig.channel.locate(new Attachment("sticker", null)),
                    "a part without a file id cannot be fetched");
            run.complete("ok");
        }
    }
}
