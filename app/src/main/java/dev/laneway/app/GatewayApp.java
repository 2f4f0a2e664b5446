package dev.laneway.app;

import dev.laneway.channels.console.ConsoleChannel;
import dev.laneway.commands.ChatCommands;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.LanewayConfig;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.engine.AccessPolicy;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.time.SystemScheduler;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running gateway: the wiring of config, store, agent, channels and engine, and its
 * lifecycle. {@link #shutdown} is idempotent, so a console end-of-input and a SIGTERM can race.
 */
final class GatewayApp {

    private static final Logger log = LoggerFactory.getLogger(GatewayApp.class);

    private final LanewayConfig config;
    private final SystemScheduler scheduler = new SystemScheduler();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final SessionStore store;
    private final Agent agent;
    private final Gateway gateway;
    private final List<String> channelNames = new ArrayList<>();
    private final AtomicBoolean stopped = new AtomicBoolean();

    GatewayApp(LanewayConfig config, InputStream consoleIn, PrintStream consoleOut, Runnable onConsoleEnd) {
        this.config = config;
        InstantSource clock = InstantSource.system();
        this.store = new InMemorySessionStore();
        String agentName = config.agents().defaultAgent();
        this.agent = AgentFactory.create(agentName, config.agents().defaultAgentConfig(), store, scheduler, clock);
        Gateway.Builder builder = Gateway.builder()
                .settings(config.toGatewaySettings())
                .clock(clock)
                .scheduler(scheduler)
                .executor(executor)
                .agent(agent)
                .store(store)
                .commands(new ChatCommands())
                .access(AccessPolicy.allowFrom(allowLists(config.channels())));
        if (config.channels().console().enabled()) {
            builder.channel(new ConsoleChannel(consoleIn, consoleOut, clock, onConsoleEnd));
            channelNames.add(ConsoleChannel.NAME);
        }
        this.gateway = builder.build();
    }

    /** The platform channels a config enables that this build does not include yet. */
    static List<String> unavailableChannels(LanewayConfig config) {
        List<String> missing = new ArrayList<>();
        if (config.channels().telegram().enabled()) {
            missing.add("telegram");
        }
        if (config.channels().discord().enabled()) {
            missing.add("discord");
        }
        if (config.channels().slack().enabled()) {
            missing.add("slack");
        }
        return missing;
    }

    private static Map<String, Set<String>> allowLists(ChannelsConfig channels) {
        Map<String, Set<String>> lists = new HashMap<>();
        lists.put("telegram", new HashSet<>(channels.telegram().allowFrom()));
        lists.put("discord", new HashSet<>(channels.discord().allowFrom()));
        lists.put("slack", new HashSet<>(channels.slack().allowFrom()));
        return lists;
    }

    void start() {
        gateway.start();
        log.info("laneway {} started: channels={} agent={} ({}) mainLane={}", Version.current(), channelNames,
                agent.name(), config.agents().defaultAgentConfig().provider(), config.agents().maxConcurrent());
    }

    List<String> channelNames() {
        return List.copyOf(channelNames);
    }

    /** Waits for every queued and running message to be answered (console end of input). */
    void awaitIdle(Duration timeout) throws InterruptedException {
        gateway.awaitIdle(timeout);
    }

    /** Stops taking messages, lets runs finish for the grace period, aborts the rest; idempotent. */
    void shutdown() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        Duration grace = config.gateway().shutdownGrace();
        try {
            boolean clean = gateway.shutdown(grace);
            log.info("laneway stopped{}", clean ? "" : " (runs still active after the grace period were aborted)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            scheduler.close();
            executor.shutdownNow();
            store.close();
        }
    }
}
