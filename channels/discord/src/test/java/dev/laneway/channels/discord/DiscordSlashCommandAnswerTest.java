package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static dev.laneway.channels.discord.DiscordJson.CAROL;
import static dev.laneway.channels.discord.DiscordJson.TEXT_CHANNEL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import net.dv8tion.jda.api.utils.data.DataArray;
import net.dv8tion.jda.api.utils.data.DataObject;
import org.junit.jupiter.api.Test;

/**
 * Every slash command gets exactly one answer, whatever the gateway does with it: Discord shows
 * "thinking…" until then, and "The application did not respond" if it never comes. Time is
 * {@link ManualTime}; stopping the channel lets JDA send everything it queued, so after
 * {@code stop()} the fake's request log is final and "nothing else was sent" can be asserted.
 */
class DiscordSlashCommandAnswerTest {

    private static final int REPLY = 4;
    private static final int DEFERRED = 5;
    private static final int EPHEMERAL = 64;
    private static final Duration PAST_THE_TOKEN = PendingInteractions.DEFAULT_TTL.plusMinutes(1);

    private final ManualTime time = new ManualTime();

    @Test
    void aSenderOutsideAllowFrom_getsOneEphemeralRefusal_andTheGatewayNeverSeesIt() throws Exception {
        try (DiscordRig rig = DiscordRig.options().time(time, time).allowFrom(ALICE).commands(new TestCommands()).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, CAROL, "status", DataArray.empty());

            Await.until("the refusal", () -> !rig.callbacks(id).isEmpty());
            time.advance(PAST_THE_TOKEN);
            rig.channel.stop();

            DataObject refusal = single(rig.callbacks(id)).json();
            assertEquals(REPLY, refusal.getInt("type"), "answered at once, not deferred");
            assertEquals(SlashNotices.NOT_ALLOWED, refusal.getObject("data").getString("content"));
            assertEquals(EPHEMERAL, refusal.getObject("data").getInt("flags") & EPHEMERAL, "only Carol sees it");
            assertEquals(List.of(), rig.followUps(id));
            assertEquals(List.of(), rig.originalEdits(id));
            assertEquals(List.of(), rig.inbound(), "never handed to the gateway");
            assertEquals(0, rig.dispositions.size());
        }
    }

    @Test
    void aSenderInAllowFrom_isAnsweredAsUsual() throws Exception {
        try (DiscordRig rig = DiscordRig.options().time(time, time).allowFrom(ALICE).commands(new TestCommands()).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, ALICE, "status", DataArray.empty());

            Await.until("the answer", () -> !rig.followUps(id).isEmpty());
            rig.channel.stop();

            assertEquals(DEFERRED, single(rig.callbacks(id)).json().getInt("type"));
            assertEquals("handled /status (authorized=false)", single(rig.followUps(id)).content());
        }
    }

    @Test
    void anAnsweredCommand_getsExactlyOneAnswer_evenWhenItsDeadlinePasses() throws Exception {
        try (DiscordRig rig = DiscordRig.options().time(time, time).commands(new TestCommands()).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, ALICE, "queue", DataArray.empty());

            Await.until("the answer", () -> !rig.followUps(id).isEmpty());
            time.advance(PAST_THE_TOKEN);
            rig.channel.stop();

            assertEquals(DEFERRED, single(rig.callbacks(id)).json().getInt("type"));
            assertEquals("handled /queue (authorized=false)", single(rig.followUps(id)).content());
            assertEquals(List.of(), rig.originalEdits(id), "no 'no answer' notice after a real answer");
            assertEquals(Disposition.COMMAND, rig.dispositions.of("interaction:" + id));
        }
    }

    @Test
    void aCommandTheGatewayDropsSilently_isClosedWithANotice_atTheDeadline() throws Exception {
        // the gateway's access policy refuses what the channel let through (DENIED, no answer)
        try (DiscordRig rig = DiscordRig.options().time(time, time).commands(new TestCommands())
                .access(message -> false).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, ALICE, "status", DataArray.empty());
            Await.until("the gateway to drop it", () -> rig.dispositions.count(Disposition.DENIED) == 1);
            Await.until("the acknowledgement", () -> !rig.callbacks(id).isEmpty());

            time.advance(InteractionFinisher.ANSWER_DEADLINE);
            Await.until("the notice", () -> !rig.originalEdits(id).isEmpty());
            time.advance(PAST_THE_TOKEN);
            rig.channel.stop();

            assertEquals(DEFERRED, single(rig.callbacks(id)).json().getInt("type"));
            assertEquals(SlashNotices.NO_ANSWER, single(rig.originalEdits(id)).content());
            assertEquals(List.of(), rig.followUps(id));
        }
    }

    @Test
    void aRedeliveredInteraction_isAnsweredOnce_andReachesTheGatewayOnce() throws Exception {
        try (DiscordRig rig = DiscordRig.options().time(time, time).commands(new TestCommands()).start()) {
            String id = DiscordJson.snowflakeNow();
            DataObject interaction = DiscordJson.guildInteraction(id, TEXT_CHANNEL, ALICE, "stop", DataArray.empty());
            rig.ws.dispatch("INTERACTION_CREATE", interaction);
            rig.ws.dispatch("INTERACTION_CREATE", DataObject.fromJson(interaction.toString()));

            Await.until("the answer", () -> !rig.followUps(id).isEmpty());
            time.advance(PAST_THE_TOKEN);
            rig.channel.stop();

            assertEquals(1, rig.inbound().size(), "the redelivery is not handed on");
            assertEquals(DEFERRED, single(rig.callbacks(id)).json().getInt("type"), "acknowledged once");
            assertEquals("handled /stop (authorized=false)", single(rig.followUps(id)).content());
            assertEquals(List.of(), rig.originalEdits(id));
        }
    }

    @Test
    void anAnswerDiscordRefuses_closesTheInteractionWithANotice() throws Exception {
        try (DiscordRig rig = DiscordRig.options().time(time, time).commands(new TestCommands()).start()) {
            rig.rest.refuseNextFollowUps(1);
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, ALICE, "status", DataArray.empty());

            Await.until("the notice", () -> !rig.originalEdits(id).isEmpty());
            time.advance(PAST_THE_TOKEN);
            rig.channel.stop();

            assertEquals(1, rig.followUps(id).size(), "the refused answer");
            assertEquals(SlashNotices.NOT_DELIVERED, single(rig.originalEdits(id)).content());
        }
    }

    @Test
    void anAnswerQueuedBeforeDiscordRefusesTheAcknowledgement_isPostedInTheChannelOnce() throws Exception {
        try (DiscordRig rig = DiscordRig.options().time(time, time).commands(new TestCommands()).start()) {
            java.util.concurrent.CountDownLatch refuse = rig.rest.holdAndRefuseCallbacks();
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, ALICE, "status", DataArray.empty());

            Await.until("the answer to wait on the unacknowledged interaction",
                    () -> rig.channel.interactionState(id).equals(java.util.Optional.of(PendingInteractions.State.ANSWERED)));
            refuse.countDown();
            Await.until("the answer in the channel", () -> !rig.rest.messagesTo(TEXT_CHANNEL).isEmpty());
            time.advance(PAST_THE_TOKEN);
            rig.channel.stop();

            assertEquals("handled /status (authorized=false)", single(rig.rest.messagesTo(TEXT_CHANNEL)).content());
            assertEquals(List.of(), rig.followUps(id), "nothing went through the dead interaction");
            assertEquals(List.of(), rig.originalEdits(id), "no failure notice: the answer arrived");
        }
    }

    @Test
    void aHandOverThatThrows_closesTheInteractionAtOnce() throws Exception {
        AtomicBoolean thrown = new AtomicBoolean();
        try (DiscordRig rig = DiscordRig.options().time(time, time).commands(new TestCommands())
                .sinkWrapper(next -> message -> {
                    thrown.set(true);
                    throw new IllegalStateException("boom");
                }).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, ALICE, "new", DataArray.empty());

            Await.until("the notice", () -> !rig.originalEdits(id).isEmpty());
            time.advance(PAST_THE_TOKEN);
            rig.channel.stop();

            assertTrue(thrown.get());
            assertEquals(DEFERRED, single(rig.callbacks(id)).json().getInt("type"));
            assertEquals(SlashNotices.NOT_HANDLED, single(rig.originalEdits(id)).content());
            assertEquals(List.of(), rig.followUps(id));
        }
    }

    @Test
    void stoppingTheChannel_closesACommandStillWaitingForItsAnswer() throws Exception {
        try (DiscordRig rig = DiscordRig.options().time(time, time).commands(new TestCommands())
                .access(message -> false).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, ALICE, "status", DataArray.empty());
            Await.until("the gateway to drop it", () -> rig.dispositions.count(Disposition.DENIED) == 1);

            rig.channel.stop();

            assertEquals(SlashNotices.SHUTTING_DOWN, single(rig.originalEdits(id)).content());
            assertEquals(List.of(), rig.followUps(id));
        }
    }

    private static FakeDiscordRest.Request single(List<FakeDiscordRest.Request> requests) {
        assertEquals(1, requests.size(), requests.toString());
        return requests.get(0);
    }
}
