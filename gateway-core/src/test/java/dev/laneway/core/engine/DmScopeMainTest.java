package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.SessionScope;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.RecordingListener;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@code session.dmScope: main} (docs/behaviour.md §1): all DMs share one session, across channels and
 * accounts; each reply still goes to its own message's route, and collect drains split by route.
 */
class DmScopeMainTest {

    private final ManualTime time = new ManualTime();
    private final TrampolineExecutor executor = new TrampolineExecutor();
    private final ScriptedAgent agent = new ScriptedAgent();
    private final FakeChannel telegram = new FakeChannel("telegram");
    private final FakeChannel discord = new FakeChannel("discord");
    private final RecordingListener dispositions = new RecordingListener();
    private int ids;

    private Gateway gateway(UnaryOperator<GatewaySettings.Builder> settings) {
        Gateway gateway = Gateway.builder()
                .settings(settings.apply(GatewaySettings.builder()
                        .sessionScope(new SessionScope(SessionScope.DmScope.MAIN, SessionScope.GroupScope.THREAD))).build())
                .clock(time).scheduler(time).executor(executor).agent(agent).listener(dispositions)
                .channel(telegram).channel(discord).build();
        gateway.start();
        return gateway;
    }

    private String dm(Gateway gateway, String channel, String sender, String text) {
        String id = "m" + (++ids);
        gateway.accept(InboundMessage.builder(channel).chatId("dm-" + sender).senderId(sender).text(text)
                .platformMessageId(id).receivedAt(time.instant()).build());
        return id;
    }

    @Test
    void dmsFromTwoChannels_shareOneSession_andEachReplyGoesToItsOwnChannel() {
        Gateway gateway = gateway(s -> s);
        dm(gateway, "telegram", "alice", "hello from telegram");
        String fromDiscord = dm(gateway, "discord", "bob", "hello from discord");
        assertEquals(1, agent.runs().size(), "one session: the discord DM waits for the telegram run");
        assertEquals("dm:main", agent.run(0).request().session().value());

        agent.run(0).complete("answer one");
        time.advance(Duration.ofSeconds(1));
        Route route = agent.run(1).request().route();
        assertEquals("discord", route.channel());
        assertEquals(fromDiscord, route.replyToMessageId());
        assertFalse(agent.run(1).prompt().contains("telegram"), agent.run(1).prompt());
        agent.run(1).complete("answer two");

        assertEquals(List.of("answer one"), telegram.texts());
        assertEquals(List.of("answer two"), discord.texts());
        assertEquals(0, gateway.busySessions());
    }

    @Test
    void aCollectDrain_splitsByRoute_inArrivalOrder() {
        Gateway gateway = gateway(s -> s);
        dm(gateway, "telegram", "alice", "run");
        dm(gateway, "discord", "bob", "d1");
        dm(gateway, "discord", "bob", "d2");
        dm(gateway, "telegram", "alice", "t1");
        agent.run(0).complete();
        time.advance(Duration.ofSeconds(1));
        assertTrue(agent.run(1).prompt().contains("d1") && agent.run(1).prompt().endsWith("d2"));
        assertEquals("discord", agent.run(1).request().route().channel());
        agent.run(1).complete();
        assertTrue(agent.run(2).prompt().endsWith("t1"));
        assertEquals("telegram", agent.run(2).request().route().channel());
    }

    @Test
    void inboundDebounce_keepsTheSameSenderIdOnTwoChannelsApart() {
        Gateway gateway = gateway(s -> s.inboundDebounce(Duration.ofMillis(500)));
        dm(gateway, "telegram", "42", "telegram text");
        dm(gateway, "discord", "42", "discord text");
        time.advance(Duration.ofMillis(500));
        assertEquals(1, agent.runs().size());
        assertEquals("telegram text", agent.run(0).prompt());
        agent.run(0).complete();
        time.advance(Duration.ofSeconds(1));
        assertTrue(agent.run(1).prompt().endsWith("discord text"));
        assertEquals("discord", agent.run(1).request().route().channel());
    }

    @Test
    void typing_isShownAndRefreshedInEveryChannelTheSharedSessionHasWorkFor() {
        Gateway gateway = gateway(s -> s);
        dm(gateway, "telegram", "alice", "run");
        dm(gateway, "discord", "bob", "queued");
        assertEquals(1, telegram.typing().size());
        assertEquals(1, discord.typing().size());
        time.advance(Duration.ofSeconds(4));
        assertEquals(2, telegram.typing().size(), "the running telegram DM keeps typing");
        assertEquals(2, discord.typing().size(), "the waiting discord DM too");
        assertEquals(1, gateway.busySessions());
    }

    @Test
    void steer_aDmFromAnotherChannel_neverSteersTheRunningDm_itGetsItsOwnTurnAndItsOwnAnswer() {
        Gateway gateway = gateway(s -> s.queueDefaults(
                new QueueSettings(QueueMode.STEER, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        dm(gateway, "telegram", "alice", "alice asks");
        String fromBob = dm(gateway, "discord", "bob", "bob asks");
        String aliceAgain = dm(gateway, "telegram", "alice", "alice adds");
        assertEquals(List.of("alice adds"), agent.run(0).steerTexts(), "only Alice's own conversation steers her run");

        agent.run(0).seeSteers().complete("answer for alice");
        time.advance(Duration.ofSeconds(1));
        assertEquals("bob asks", agent.run(1).prompt());
        assertEquals("discord", agent.run(1).request().route().channel());
        agent.run(1).complete("answer for bob");

        assertEquals(List.of("answer for alice"), telegram.texts());
        assertEquals(List.of("answer for bob"), discord.texts());
        assertEquals(Disposition.STEERED, dispositions.of(aliceAgain));
        assertEquals(Disposition.RAN, dispositions.of(fromBob));
    }

    @Test
    void steerBacklog_aDmFromAnotherChannel_isNotSteered_andRunsOnceAsAFollowup() {
        Gateway gateway = gateway(s -> s.queueDefaults(
                new QueueSettings(QueueMode.STEER_BACKLOG, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        dm(gateway, "telegram", "alice", "alice asks");
        String fromBob = dm(gateway, "discord", "bob", "bob asks");
        assertEquals(List.of(), agent.run(0).steerTexts());
        agent.run(0).complete("answer for alice");
        time.advance(Duration.ofSeconds(1));
        agent.run(1).complete("answer for bob");
        time.advance(Duration.ofSeconds(5));
        assertEquals(2, agent.runs().size(), "one followup turn, no second copy");
        assertEquals(List.of("answer for bob"), discord.texts());
        assertEquals(Disposition.RAN, dispositions.of(fromBob));
    }
}
