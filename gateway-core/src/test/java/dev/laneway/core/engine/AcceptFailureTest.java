package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ForwardingJournal;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.RecordingListener;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A failure after dedupe (here: the store cannot be read while settings are resolved) still ends
 * the message in exactly one disposition with a notice to its sender, gives its admission slot
 * back, and leaves it unremembered, so a platform redelivery is processed (docs/behaviour.md §8.5).
 */
class AcceptFailureTest {

    /** A store whose reads fail while {@code broken} is set. */
    private static final class FlakyStore implements SessionStore {
        private final SessionStore delegate = new InMemorySessionStore();
        volatile boolean broken;

        @Override
        public Optional<QueueOverride> queueOverride(SessionKey session) {
            if (broken) {
                throw new IllegalStateException("database is locked");
            }
            return delegate.queueOverride(session);
        }

        @Override
        public void setQueueOverride(SessionKey session, QueueOverride override) {
            delegate.setQueueOverride(session, override);
        }

        @Override
        public List<HistoryEntry> history(SessionKey session, int limit) {
            return delegate.history(session, limit);
        }

        @Override
        public void appendHistory(SessionKey session, List<HistoryEntry> entries) {
            delegate.appendHistory(session, entries);
        }

        @Override
        public void clearHistory(SessionKey session) {
            delegate.clearHistory(session);
        }

        @Override
        public Optional<java.time.Instant> lastFire(String jobId) {
            return delegate.lastFire(jobId);
        }

        @Override
        public void recordFire(String jobId, java.time.Instant at) {
            delegate.recordFire(jobId, at);
        }
    }

    @Test
    void aStoreThatFailsWhileSettingsAreResolved_endsTheMessageOnce_tellsTheSender_andARedeliveryIsProcessed() {
        ManualTime time = new ManualTime();
        FlakyStore store = new FlakyStore();
        FakeChannel channel = new FakeChannel("test");
        ScriptedAgent agent = new ScriptedAgent();
        RecordingListener dispositions = new RecordingListener();
        InMemoryJournal journal = new InMemoryJournal();
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor())
                .agent(agent).store(store).journal(journal).listener(dispositions).channel(channel).build();
        gateway.start();
        InboundMessage message = InboundMessage.builder("test").text("hello").platformMessageId("m1")
                .chatId("chat").senderId("user").receivedAt(time.instant()).build();

        store.broken = true;
        gateway.accept(message);
        assertEquals(List.of(new RecordingListener.Entry(message, Disposition.REJECTED_BUSY)), dispositions.entries(),
                "exactly one disposition");
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (storage unavailable)"), channel.texts());
        assertEquals(0, gateway.pendingMessages(), "the admission slot was given back");
        assertEquals(List.of(), journal.pending(), "nothing half-accepted is left in the journal");
        assertEquals(0, agent.runs().size());

        store.broken = false;
        gateway.accept(message); // the platform redelivers it
        assertEquals(List.of("hello"), agent.prompts(), "processed, not a duplicate");
        agent.run(0).complete("hi");
        assertEquals(Disposition.RAN, dispositions.entries().get(1).disposition());
        assertEquals("hi", channel.texts().get(1));
        assertEquals(0, gateway.pendingMessages());
    }

    @Test
    void aFailingAccessPolicy_endsTheMessageOnce_withoutAnsweringASenderItCouldNotCheck() {
        ManualTime time = new ManualTime();
        FakeChannel channel = new FakeChannel("test");
        RecordingListener dispositions = new RecordingListener();
        AccessPolicy broken = message -> {
            throw new IllegalStateException("allow list unavailable");
        };
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor())
                .agent(new ScriptedAgent()).access(broken).listener(dispositions).channel(channel).build();
        gateway.start();
        InboundMessage message = InboundMessage.builder("test").text("hello").platformMessageId("m1")
                .receivedAt(time.instant()).build();
        gateway.accept(message);
        gateway.accept(message);
        assertEquals(List.of(Disposition.REJECTED_BUSY, Disposition.REJECTED_BUSY),
                dispositions.entries().stream().map(RecordingListener.Entry::disposition).toList(),
                "one disposition each, and the redelivery was processed again rather than called a duplicate");
        assertEquals(List.of(), channel.texts());
        assertEquals(0, gateway.pendingMessages());
    }

    @Test
    void aJournalThatCannotSayWhetherItSawAMessage_refusesItVisibly_andTheRedeliveryIsProcessed() {
        ManualTime time = new ManualTime();
        FakeChannel channel = new FakeChannel("test");
        ScriptedAgent agent = new ScriptedAgent();
        RecordingListener dispositions = new RecordingListener();
        AtomicBoolean broken = new AtomicBoolean(true);
        InMemoryJournal journal = new InMemoryJournal();
        MessageJournal flaky = new ForwardingJournal(journal) {
            @Override
            public boolean seen(String messageKey) {
                if (broken.get()) {
                    throw new IllegalStateException("store closed");
                }
                return super.seen(messageKey);
            }
        };
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor())
                .agent(agent).journal(flaky).listener(dispositions).channel(channel).build();
        gateway.start();
        InboundMessage message = InboundMessage.builder("test").text("hello").platformMessageId("m1")
                .receivedAt(time.instant()).build();

        gateway.accept(message);
        assertEquals(List.of(Disposition.REJECTED_BUSY),
                dispositions.entries().stream().map(RecordingListener.Entry::disposition).toList());
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (internal error)"), channel.texts());
        broken.set(false);
        gateway.accept(message);
        assertEquals(List.of("hello"), agent.prompts(), "the redelivery is processed");
    }

    @Test
    void aMessageTheQueueAlreadyRejected_staysRemembered_whenAFailureFollows_soARedeliveryIsADuplicate() {
        ManualTime time = new ManualTime();
        FakeChannel channel = new FakeChannel("test");
        ScriptedAgent agent = new ScriptedAgent();
        RecordingListener dispositions = new RecordingListener();
        // a metrics listener that breaks after the queue has rejected the message: the failure reaches accept
        DispositionListener breaksOnRejection = (message, disposition) -> {
            dispositions.recorded(message, disposition);
            if (disposition == Disposition.REJECTED_NEW) {
                throw new NoClassDefFoundError("metrics/Counter");
            }
        };
        GatewaySettings settings = GatewaySettings.builder()
                .queueDefaults(new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 1, DropPolicy.NEW)).build();
        Gateway gateway = Gateway.builder().settings(settings).clock(time).scheduler(time)
                .executor(new TrampolineExecutor()).agent(agent).listener(breaksOnRejection).channel(channel).build();
        gateway.start();
        gateway.accept(dm("m1", "running", time));
        gateway.accept(dm("m2", "queued", time));
        InboundMessage rejected = dm("m3", "rejected", time);
        gateway.accept(rejected);
        assertEquals(Disposition.REJECTED_NEW, dispositions.of("m3"));

        gateway.accept(rejected); // the platform redelivers it
        assertEquals(List.of(Disposition.REJECTED_NEW, Disposition.DUPLICATE), dispositions.entries().stream()
                .filter(e -> e.message().platformMessageId().equals("m3")).map(RecordingListener.Entry::disposition).toList(),
                "ended once; the redelivery is recognised, not processed again");
        assertEquals(List.of("running"), agent.prompts());
    }

    @Test
    void aCommandWhoseReplyCannotBeQueued_stillEndsInExactlyOneDisposition() {
        ManualTime time = new ManualTime();
        RecordingListener dispositions = new RecordingListener();
        Executor refusing = task -> {
            throw new RejectedExecutionException("outbox executor shut down");
        };
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor())
                .outboxExecutor(refusing).agent(new ScriptedAgent()).listener(dispositions)
                .commands((message, context) -> new CommandDecision.Reply("ok"))
                .channel(new FakeChannel("test")).build();
        gateway.accept(dm("m1", "/status", time));
        assertEquals(List.of(Disposition.COMMAND),
                dispositions.entries().stream().map(RecordingListener.Entry::disposition).toList());
    }

    private static InboundMessage dm(String id, String text, ManualTime time) {
        return InboundMessage.builder("test").text(text).platformMessageId(id).chatId("chat").senderId("user")
                .receivedAt(time.instant()).build();
    }
}
