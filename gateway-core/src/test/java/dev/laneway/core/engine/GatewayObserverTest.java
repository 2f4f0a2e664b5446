package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class GatewayObserverTest {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final GatewayObserver observer = new GatewayObserver() {
        @Override
        public void recorded(InboundMessage message, Disposition disposition) {
            events.add("disposition " + message.channel() + " " + disposition);
        }

        @Override
        public void runFinished(String agent, Duration waited, Duration duration, GatewayObserver.RunResult outcome) {
            events.add("run " + agent + " waited=" + waited.toMillis() + " took=" + duration.toMillis() + " " + outcome.id());
        }

        @Override
        public void laneWaited(String lane, Duration waited) {
            events.add("lane " + lane + " " + waited.toMillis());
        }

        @Override
        public void drainDelayed(Duration delay) {
            events.add("drain " + delay.toMillis());
        }

        @Override
        public void sent(String channel) {
            events.add("sent " + channel);
        }

        @Override
        public void rateLimited(String channel) {
            events.add("429 " + channel);
        }

        @Override
        public void sendFailed(String channel) {
            events.add("send failed " + channel);
        }
    };

    @Test
    void aSendThatFinallyFails_isCounted_andTheMessageStaysPending() {
        ManualTime time = new ManualTime();
        ScriptedAgent agent = new ScriptedAgent();
        FakeChannel channel = new FakeChannel("test").failSends(true);
        InMemoryJournal journal = new InMemoryJournal();
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor()).agent(agent)
                .journal(journal).observer(observer).channel(channel).build();
        gateway.start();
        gateway.accept(InboundMessage.builder("test").text("hello").platformMessageId("m1").receivedAt(time.instant()).build());
        agent.run(0).complete("answer");

        assertEquals(List.of("send failed test"), events.stream().filter(e -> e.startsWith("send")).toList(),
                "counted as failed, not as sent");
        assertEquals(1, journal.pending().size(), "the user never got the answer: it runs again after a restart");
        assertEquals(null, journal.answered(1), "not recorded as answered");
        channel.failSends(false);
        gateway.accept(InboundMessage.builder("test").text("again").platformMessageId("m2").receivedAt(time.instant()).build());
        agent.run(1).complete("second answer");
        assertEquals(List.of("second answer"), channel.texts(), "the chat keeps working after a failed send");
    }

    @Test
    void theObserverSeesDispositionsRunsLaneWaitsDrainsSendsAndRateLimits() {
        ManualTime time = new ManualTime();
        ScriptedAgent agent = new ScriptedAgent();
        Gateway gateway = Gateway.builder().settings(GatewaySettings.builder().mainMaxConcurrent(1).build())
                .clock(time).scheduler(time).executor(new TrampolineExecutor()).agent(agent)
                .observer(observer).channel(new FakeChannel("test")).build();
        gateway.accept(InboundMessage.builder("test").senderId("a").chatId("a").text("one").build());
        gateway.accept(InboundMessage.builder("test").senderId("b").chatId("b").text("two").build());
        gateway.accept(InboundMessage.builder("test").senderId("a").chatId("a").text("queued").build());
        time.advanceMillis(3000);
        agent.run(0).complete("answer");
        time.advanceMillis(500);
        agent.run(1).complete();
        agent.run(2).complete();
        gateway.rateLimited("test");

        assertTrue(events.contains("lane main 0"), events.toString());
        assertTrue(events.contains("lane main 3000"), "the second session waited 3 s for main: " + events);
        assertTrue(events.contains("run scripted waited=0 took=3000 completed"), events.toString());
        assertTrue(events.contains("sent test"), events.toString());
        assertTrue(events.stream().anyMatch(e -> e.startsWith("drain ")), events.toString());
        assertEquals(2, events.stream().filter("disposition test RAN"::equals).count());
        assertTrue(events.contains("disposition test COLLECTED"), events.toString());
        assertTrue(events.contains("429 test"), events.toString());
    }

    @Test
    void aThrowingListenerOrObserver_neverDisturbsTheEngine() {
        ManualTime time = new ManualTime();
        ScriptedAgent agent = new ScriptedAgent();
        FakeChannel channel = new FakeChannel("test");
        GatewayObserver broken = new GatewayObserver() {
            @Override
            public void recorded(InboundMessage message, Disposition disposition) {
                throw new IllegalStateException("metrics down");
            }

            @Override
            public void sent(String name) {
                throw new IllegalStateException("metrics down");
            }
        };
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor()).agent(agent)
                .listener((message, disposition) -> { throw new IllegalStateException("listener down"); })
                .observer(broken).channel(channel).build();
        InboundMessage message = InboundMessage.builder("test").text("hi").platformMessageId("m1").build();
        gateway.accept(message);
        gateway.accept(message);
        agent.run(0).complete("answer");
        assertEquals(List.of("answer"), channel.texts());
        assertEquals(1, agent.runs().size(), "the duplicate was still recognised");
        assertEquals(0, gateway.pendingMessages());
        assertEquals(0, gateway.busySessions());
    }
}
