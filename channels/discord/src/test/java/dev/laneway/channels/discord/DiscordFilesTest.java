package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Attachment;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.channel.FileLocation;
import dev.laneway.core.testing.Await;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.dv8tion.jda.api.utils.data.DataArray;
import net.dv8tion.jda.api.utils.data.DataObject;
import org.junit.jupiter.api.Test;

/**
 * Discord attachments reach the agent with a way to fetch them (docs/behaviour.md §15.1): name, type,
 * size and the signed CDN URL, which {@code locate} hands back as shareable (no token needed) and the
 * fake CDN serves. A file-only message is a real message; a voice message is a {@code voice}.
 */
class DiscordFilesTest {

    @Test
    void aFileOnlyDm_withATextFileAndAVoiceMessage_reachesTheAgent_andTheCdnServesTheFile() throws Exception {
        byte[] notes = "what the file says".getBytes(StandardCharsets.UTF_8);
        try (DiscordRig rig = DiscordRig.start()) {
            rig.rest.files.serve("1/2/notes.txt", notes, "text/plain");
            DataArray attachments = DataArray.empty()
                    .add(DataObject.empty().put("id", "31").put("filename", "notes.txt").put("size", notes.length)
                            .put("url", rig.rest.cdnUrl("1/2/notes.txt")).put("proxy_url", rig.rest.cdnUrl("1/2/notes.txt"))
                            .put("content_type", "text/plain; charset=utf-8"))
                    .add(DataObject.empty().put("id", "32").put("filename", "voice-message.ogg").put("size", 5000)
                            .put("url", rig.rest.cdnUrl("1/3/voice-message.ogg"))
                            .put("proxy_url", rig.rest.cdnUrl("1/3/voice-message.ogg"))
                            .put("content_type", "audio/ogg").put("duration_secs", 2.5).put("waveform", "AAAA"));
            rig.dmWithAttachments("7101", ALICE, "", attachments);

            InboundMessage in = rig.inbound("7101");
            Attachment text = new Attachment("file", "notes.txt", "text/plain; charset=utf-8", notes.length,
                    rig.rest.cdnUrl("1/2/notes.txt"));
            assertEquals(text, in.attachments().get(0));
            assertEquals("voice", in.attachments().get(1).kind());

            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            assertEquals("[file: notes.txt (text/plain; charset=utf-8, 18 B)]\n"
                    + "[file: voice-message.ogg (audio/ogg, 4.9 KB)]", rig.agent.run(0).prompt());
            assertEquals(List.of(new MessageFiles("discord", in.attachments())), rig.agent.run(0).request().files());

            FileLocation location = rig.channel.locate(text);
            assertTrue(location.shareable(), "a signed CDN URL needs no token");
            assertEquals(List.of(), List.copyOf(location.headers().keySet()));
            HttpResponse<byte[]> got = HttpClient.newHttpClient().send(HttpRequest.newBuilder(location.url()).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertArrayEquals(notes, got.body());
            rig.agent.run(0).complete("it says what it says");
        }
    }
}
