package dev.laneway.core.testing;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.engine.AgentRoster;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.store.MessageJournal;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * A gateway wired for deterministic tests: manual time, a trampoline executor, one fake channel
 * named {@code test}, a scripted agent and a disposition recorder. Messages get ids m1, m2, ...
 */
public final class GatewayHarness {

    public final ManualTime time;
    public final TrampolineExecutor executor = new TrampolineExecutor();
    /** Delivers replies; {@link TrampolineExecutor#pause pause} it to hold answers back. */
    public final TrampolineExecutor outbox = new TrampolineExecutor();
    public final FakeChannel channel;
    /** The agent that answers by default (see {@link #GatewayHarness(UnaryOperator, AgentRoster)}). */
    public final ScriptedAgent agent;
    public final RecordingListener dispositions = new RecordingListener();
    public final InMemorySessionStore store = new InMemorySessionStore();
    public final Gateway gateway;
    private int nextId;

    public GatewayHarness() {
        this(settings -> settings);
    }

    public GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings) {
        this(settings, CommandHandler.NONE);
    }

    public GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, CommandHandler commands) {
        this(settings, commands, MessageJournal.NONE, new ManualTime());
    }

    /**
     * A gateway on a given journal, starting at a given time: build a second harness on the first
     * one's journal to simulate a crash (the first is simply dropped) and a restart.
     */
    public GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, CommandHandler commands,
                          MessageJournal journal, ManualTime time) {
        this(settings, commands, journal, time, builder -> builder);
    }

    /**
     * A gateway with several agents, their bindings and fallbacks (docs/behaviour.md §13); {@link #agent}
     * is the roster's default agent when that is a {@link ScriptedAgent}.
     */
    public GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, AgentRoster agents) {
        this(settings, CommandHandler.NONE, MessageJournal.NONE, new ManualTime(), agents);
    }

    /** As {@link #GatewayHarness(UnaryOperator, AgentRoster)}, on a given journal and time (a restart). */
    public GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, CommandHandler commands,
                          MessageJournal journal, ManualTime time, AgentRoster agents) {
        this(settings, commands, journal, time, agents, builder -> builder);
    }

    /** As above, with more wiring of the gateway (an access policy, job agents) applied last. */
    public GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, CommandHandler commands,
                          MessageJournal journal, ManualTime time, UnaryOperator<Gateway.Builder> wiring) {
        this(settings, commands, journal, time, null, wiring);
    }

    /**
     * A restart onto a given channel: set it up before the gateway starts (a {@link FakeChannel#sameChatsAs}
     * of the crashed harness's channel keeps the messages it posted).
     */
    public GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, MessageJournal journal, ManualTime time,
                          FakeChannel channel) {
        this(settings, CommandHandler.NONE, journal, time, null, builder -> builder, channel);
    }

    private GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, CommandHandler commands,
                           MessageJournal journal, ManualTime time, AgentRoster agents,
                           UnaryOperator<Gateway.Builder> wiring) {
        this(settings, commands, journal, time, agents, wiring, new FakeChannel("test"));
    }

    /** As the restart onto a given channel, with more wiring of the gateway (a fleet) applied last. */
    public GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, MessageJournal journal, ManualTime time,
                          FakeChannel channel, UnaryOperator<Gateway.Builder> wiring) {
        this(settings, CommandHandler.NONE, journal, time, null, wiring, channel);
    }

    /** A gateway on {@code channel} (its receipts or capabilities set up before the gateway reads them). */
    public GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, FakeChannel channel) {
        this(settings, MessageJournal.NONE, new ManualTime(), channel);
    }

    private GatewayHarness(UnaryOperator<GatewaySettings.Builder> settings, CommandHandler commands,
                           MessageJournal journal, ManualTime time, AgentRoster agents,
                           UnaryOperator<Gateway.Builder> wiring, FakeChannel channel) {
        this.channel = channel;
        this.time = time;
        this.agent = agents != null && agents.agent(agents.defaultAgent()) instanceof ScriptedAgent scripted
                ? scripted : new ScriptedAgent();
        gateway = wiring.apply(Gateway.builder()
                .settings(settings.apply(GatewaySettings.builder()).build())
                .clock(time)
                .scheduler(time)
                .executor(executor)
                .outboxExecutor(outbox)
                .agent(agent)
                .agents(agents)
                .store(store)
                .commands(commands)
                .listener(dispositions)
                .journal(journal)
                .channel(channel))
                .build();
        gateway.start();
    }

    /** A DM from {@code user} with the next message id; returns the id. */
    public String dm(String text) {
        return send(message(text));
    }

    /** A group message in chat {@code group} from the given sender; returns the id. */
    public String group(String senderId, String text) {
        return send(message(text).direct(false).chatId("group").senderId(senderId).senderName(capitalize(senderId)));
    }

    /** A message built from the defaults of {@link #message}, sent now; returns its id. */
    public String send(InboundMessage.Builder builder) {
        InboundMessage message = builder.receivedAt(time.instant()).build();
        gateway.accept(message);
        return message.platformMessageId();
    }

    /** A DM builder from {@code user} in chat {@code chat} with the next message id. */
    public InboundMessage.Builder message(String text) {
        return InboundMessage.builder("test").text(text).platformMessageId("m" + (++nextId))
                .chatId("chat").senderId("user").senderName("User");
    }

    public void advance(Duration by) {
        time.advance(by);
    }

    public void advanceMillis(long millis) {
        time.advanceMillis(millis);
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
