package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Answers streamed into a private chat as a draft ({@code sendMessageDraft}), the final text sent
 * with {@code sendMessage}; groups keep send, then edit; a Bot API that refuses drafts makes the
 * chat send, then edit from then on (docs/behaviour.md §16.1, D211).
 */
class DraftStreamingTest {

    private static Rig drafting() throws Exception {
        return Rig.with().settings(s -> s.withDrafts(true).withGroupsRequireMention(false)).start();
    }

    private static List<String> methods(Rig rig) {
        return rig.api.calls("sendMessageDraft").size() + rig.api.calls("sendMessage").size()
                + rig.api.calls("editMessageText").size() == 0 ? List.of()
                : java.util.stream.Stream.of("sendMessageDraft", "sendMessage", "editMessageText")
                        .flatMap(m -> rig.api.calls(m).stream())
                        .sorted(java.util.Comparator.comparing(FakeBotApi.Call::at))
                        .map(FakeBotApi.Call::method).toList();
    }

    @Test
    void aPrivateChat_streamsADraft_thenSendsTheFinalTextAsOneMessage() throws Exception {
        String answer = "**Lanes** keep one run per conversation.";
        try (Rig rig = drafting()) {
            int asked = rig.api.dm(Tg.ANN, "explain");
            var run = rig.run(0);
            run.delta("**Lanes** keep");
            Await.until("the draft", () -> rig.api.calls("sendMessageDraft").size() == 1);
            var first = rig.api.calls("sendMessageDraft").get(0).body();
            int draftId = first.path("draft_id").asInt();
            assertTrue(draftId != 0, "a draft id is never 0");
            assertEquals(Tg.ANN.id(), first.path("chat_id").asLong());
            assertEquals("<b>Lanes</b> keep", first.path("text").asText());
            assertEquals("html", first.path("parse_mode").asText());
            assertEquals(List.of(), rig.api.sentTo(Tg.ANN.id()), "a draft is no message");
            run.delta(" one run");
            rig.time.advance(Duration.ofSeconds(1)); // the outbox's least interval between changes holds for drafts
            Await.until("the draft changes", () -> rig.api.calls("sendMessageDraft").size() == 2);
            assertEquals(draftId, rig.api.calls("sendMessageDraft").get(1).body().path("draft_id").asInt(),
                    "the same draft changes (animated)");
            assertEquals("Lanes keep one run", rig.api.draft(Tg.ANN.id(), draftId));
            run.complete(answer);
            Await.until("the answer", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            FakeBotApi.Sent sent = rig.api.sentTo(Tg.ANN.id()).get(0);
            assertEquals("Lanes keep one run per conversation.", sent.visible());
            assertEquals(asked, sent.replyTo(), "the final message answers the question, as a plain reply does");
            assertEquals(List.of("sendMessageDraft", "sendMessageDraft", "sendMessage"), methods(rig));
        }
    }

    @Test
    void aReplyThatIsNotStreamed_isAMessage_neverADraft() throws Exception {
        try (Rig rig = drafting()) {
            rig.api.dm(Tg.ANN, "hi");
            rig.run(0).complete("Whole answer"); // a plain reply, as a notice is
            Await.until("the answer", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals("Whole answer", rig.api.sentTo(Tg.ANN.id()).get(0).visible());
            assertEquals(List.of(), rig.api.calls("sendMessageDraft"));
        }
    }

    @Test
    void aGroup_keepsSendThenEdit() throws Exception {
        try (Rig rig = drafting()) {
            rig.api.group(Tg.ANN, "explain");
            var run = rig.run(0);
            run.delta("Lanes");
            Await.until("the first text", () -> rig.api.sentTo(Tg.GROUP).size() == 1);
            run.complete("Lanes keep order.");
            Await.until("the final edit", () -> rig.api.calls("editMessageText").size() == 1);
            assertEquals(List.of("Lanes keep order."), rig.api.screen(Tg.GROUP));
            assertEquals(List.of(), rig.api.calls("sendMessageDraft"));
        }
    }

    @Test
    void aBotApiThatRefusesDrafts_fallsBackToSendThenEdit_forThatChat_andRemembersIt() throws Exception {
        for (int status : new int[] {400, 404}) {
            try (Rig rig = drafting()) {
                rig.api.refuseDrafts(status);
                rig.api.dm(Tg.ANN, "first");
                var run = rig.run(0);
                run.delta("One");
                Await.until("the first text", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
                run.delta(" two");
                rig.time.advance(Duration.ofSeconds(1));
                Await.until("an edit", () -> rig.api.calls("editMessageText").size() == 1);
                run.complete("One two three.");
                Await.until("the final edit", () -> rig.api.calls("editMessageText").size() == 2);
                assertEquals(List.of("One two three."), rig.api.screen(Tg.ANN.id()));
                assertEquals(1, rig.api.calls("sendMessageDraft").size(), "refused once (HTTP " + status + ")");

                rig.api.dm(Tg.ANN, "second");
                rig.time.advance(Duration.ofSeconds(1));
                var second = rig.run(1);
                second.delta("Again");
                Await.until("the second answer's first text", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
                second.complete("Again, sent then edited.");
                Await.until("its final edit", () -> rig.api.calls("editMessageText").size() == 3);
                assertEquals(1, rig.api.calls("sendMessageDraft").size(), "the chat's refusal is remembered");
                assertEquals(List.of("One two three.", "Again, sent then edited."), rig.api.screen(Tg.ANN.id()));
            }
        }
    }

    @Test
    void aStopMidDraft_sendsThePartialTextWithItsMark() throws Exception {
        try (Rig rig = drafting()) {
            rig.api.dm(Tg.ANN, "go");
            var run = rig.run(0);
            run.delta("Partial");
            Await.until("the draft", () -> rig.api.calls("sendMessageDraft").size() == 1);
            rig.api.dm(Tg.ANN, "/stop");
            Await.until("the abort", run::abortRequested);
            run.finishAborted();
            Await.until("the marked text", () -> rig.api.sentTo(Tg.ANN.id()).stream()
                    .anyMatch(s -> s.visible().equals("Partial\n\n⏹ Stopped.")));
        }
    }
}
