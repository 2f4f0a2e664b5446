package dev.laneway.app;

import dev.laneway.app.files.AgentFiles;
import dev.laneway.app.ops.ChannelConnectivity;
import dev.laneway.app.ops.DispositionFeed;
import dev.laneway.app.ops.FleetIngress;
import dev.laneway.app.ops.FleetView;
import dev.laneway.app.ops.JobControls;
import dev.laneway.app.ops.OperatorConsole;
import dev.laneway.app.ops.MetricsObserver;
import dev.laneway.app.ops.OpsEndpoints;
import dev.laneway.app.ops.OpsServer;
import dev.laneway.app.ops.ProviderMeters;
import dev.laneway.agents.pool.ProviderPools;
import dev.laneway.channels.console.ConsoleChannel;
import dev.laneway.channels.discord.DiscordChannel;
import dev.laneway.channels.slack.SlackChannel;
import dev.laneway.channels.telegram.TelegramChannel;
import dev.laneway.commands.ChatCommands;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.GatewayConfig;
import dev.laneway.config.LanewayConfig;
import dev.laneway.core.Route;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.SeenIds;
import dev.laneway.core.engine.AccessPolicy;
import dev.laneway.core.engine.AgentRoster;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.jobs.JobStatus;
import dev.laneway.core.jobs.JobSubmitter;
import dev.laneway.core.jobs.ScheduledJob;
import dev.laneway.core.jobs.ScheduledJobs;
import dev.laneway.core.time.SystemScheduler;
import dev.laneway.store.DurableStore;
import dev.laneway.core.fleet.FleetAllowance;
import dev.laneway.store.redis.FleetPermits;
import dev.laneway.store.redis.FleetTiming;
import dev.laneway.store.redis.RedisFleetMember;
import dev.laneway.store.redis.RedisSeenIds;
import dev.laneway.store.redis.RedisStore;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running gateway: the wiring of config, store, agents, channels, metrics and engine, and its
 * lifecycle. Construction order: store, channels, metrics observer, provider pools, agents, gateway,
 * scheduled jobs, ops server.
 * {@link #shutdown} is idempotent, so a console end-of-input and a SIGTERM can race.
 */
final class GatewayApp {

    private static final Logger log = LoggerFactory.getLogger(GatewayApp.class);

    private final LanewayConfig config;
    private final SystemScheduler scheduler = new SystemScheduler();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final DurableStore store;
    private final RedisFleetMember fleet; // null unless the store is Redis (docs/behaviour.md §17)
    private final ProviderPools pools;
    private final AgentRoster agents;
    private final List<ChannelAdapter> channels = new ArrayList<>();
    private final Gateway gateway;
    private final ScheduledJobs jobs;
    private final OpsServer ops;
    private final OperatorConsole console; // null when gateway.http is disabled
    private final AtomicBoolean stopped = new AtomicBoolean();

    /**
     * Opens the store (a {@code StoreException} names the file, or the Redis URL with its credentials
     * masked, when it cannot) and wires everything.
     */
    GatewayApp(LanewayConfig config, InputStream consoleIn, PrintStream consoleOut, Runnable onConsoleEnd) {
        this.config = config;
        InstantSource clock = InstantSource.system();
        this.store = StoreSetup.open(config);
        RedisFleetMember member = null;
        try {
            member = store instanceof RedisStore redis
                    ? RedisFleetMember.join(redis, fleetTiming(config.gateway().fleet()), clock, scheduler, executor) : null;
            addChannels(config.channels(), consoleIn, consoleOut, clock, onConsoleEnd,
                    store instanceof RedisStore redis && member != null ? RedisSeenIds.on(redis, member.id())
                            : SeenIds.Source.local(clock),
                    member == null ? null : new TelegramChannel.PollerFleet(member.leases(), scheduler, executor,
                            member.timing().renewEvery()),
                    member == null ? null : new DiscordChannel.ShardFleet(member.leases(), member.standing(), scheduler,
                            executor, member.timing().renewEvery()));
            List<String> channelNames = channels.stream().map(ChannelAdapter::name).toList();
            List<String> named = jobAgentNames(config);
            // in a fleet every series names its instance; alone none does (docs/decisions.md D185)
            MetricsObserver metrics = new MetricsObserver(channelNames, config.agents().reachable(named),
                    member == null ? Map.of() : Map.of("instance", member.id()));
            this.pools = new ProviderPools(config.providers().values(), config.scheduling(), clock, scheduler,
                    new ProviderMeters(metrics.registry()));
            if (member != null) { // provider limits count every instance's calls (docs/behaviour.md §14.5, §17)
                pools.fleetWide(member.caps(), executor, FleetAllowance.RETRY_EVERY);
            }
            this.agents = AgentFactory.roster(config.agents(), named, store, scheduler, clock, pools);
            Map<String, Agent> jobAgents = jobAgents(config);
            AgentFiles.wire(config.agents().reachable(named).stream().map(agents::agent).toList(), channels,
                    config.attachments(), config.gateway().dataDir());
            DispositionFeed feed = new DispositionFeed(clock); // the console's disposition stream (docs/behaviour.md §18)
            Gateway.Builder builder = Gateway.builder()
                    .settings(config.toGatewaySettings())
                    .clock(clock)
                    .scheduler(scheduler)
                    .executor(executor)
                    .agents(agents)
                    .store(store)
                    .journal(store)
                    .commands(new ChatCommands(this::jobsPostingTo))
                    .access(AccessPolicy.allowFrom(allowLists(config.channels())))
                    .listener(feed)
                    .observer(metrics);
            FleetPermits mainPermits = member == null ? null : member.permits("main", config.agents().maxConcurrent());
            if (member != null) {
                builder.fleet(member).fleetMain(mainPermits.source()).fleetCaps(member.caps());
            }
            channels.forEach(builder::channel);
            jobAgents.forEach(builder::jobAgent);
            this.gateway = builder.build();
            this.jobs = new ScheduledJobs(config.schedules(), store, JobSubmitter.of(gateway), clock, scheduler, executor,
                    metrics::scheduleFired);
            Supplier<Map<String, Boolean>> connectivity = ChannelConnectivity.of(channels, gateway::channelStarted);
            metrics.bind(gateway, connectivity);
            GatewayConfig.Http http = config.gateway().http();
            this.console = http.enabled() ? new OperatorConsole(http.adminToken().value(), gateway, feed, metrics,
                    connectivity, jobs::status, JobControls.of(jobs), pools::snapshots, clock, scheduler, executor)
                    : null;
            RedisFleetMember joined = member;
            List<FleetIngress.Plan> ingress = FleetIngress.plan(config.channels());
            Supplier<FleetView> fleetView = joined == null ? () -> null
                    : () -> FleetView.of(joined, (RedisStore) store, gateway, mainPermits, ingress, discordShards());
            this.ops = http.enabled() ? new OpsServer(http, new OpsEndpoints(gateway, metrics, connectivity, store::isOpen,
                    store::reachable, jobs::status, pools::snapshots, fleetView), console)
                    : null;
        } catch (RuntimeException e) {
            if (member != null) {
                member.close();
            }
            store.close();
            throw e;
        }
        this.fleet = member;
    }

    /** The Discord shards this instance connects, for {@code /status}; null when Discord is off. */
    private Supplier<List<Integer>> discordShards() {
        return channels.stream().filter(DiscordChannel.class::isInstance).map(DiscordChannel.class::cast)
                .findFirst().<Supplier<List<Integer>>>map(discord -> discord::shardsHere).orElse(null);
    }

    /** The scheduled jobs that post to a conversation, for the chat's {@code /status}. */
    private List<JobStatus> jobsPostingTo(Route conversation) {
        return jobs.statusFor(conversation);
    }

    /** The agents scheduled jobs name (docs/behaviour.md §12): built with the others, with their fallbacks. */
    /** {@code gateway.fleet} as the Redis fleet's timing (docs/configuration.md §17). */
    static FleetTiming fleetTiming(GatewayConfig.Fleet fleet) {
        return new FleetTiming(fleet.leaseTtl(), fleet.renewEvery());
    }

    private static List<String> jobAgentNames(LanewayConfig config) {
        return config.schedules().stream().map(ScheduledJob::agent).filter(Objects::nonNull).distinct().toList();
    }

    /**
     * job id -> the agent its {@code agent:} names, the roster's own (so its fallbacks apply), for jobs
     * that name one; the others are answered by the agent their target's binding names.
     */
    private Map<String, Agent> jobAgents(LanewayConfig config) {
        Map<String, Agent> byJob = new HashMap<>();
        for (ScheduledJob job : config.schedules()) {
            if (job.agent() != null) {
                byJob.put(job.id(), agents.agent(job.agent()));
            }
        }
        return byJob;
    }

    /**
     * {@code seen}: where channels keep platform ids already taken (the fleet's on Redis);
     * {@code pollers}: the fleet's Telegram poller election, {@code shards}: its Discord shard
     * assignment; both null alone (docs/behaviour.md §17, "Ingress").
     */
    private void addChannels(ChannelsConfig config, InputStream consoleIn, PrintStream consoleOut, InstantSource clock,
                             Runnable onConsoleEnd, SeenIds.Source seen, TelegramChannel.PollerFleet pollers,
                             DiscordChannel.ShardFleet shards) {
        if (config.console().enabled()) {
            channels.add(new ConsoleChannel(consoleIn, consoleOut, clock, onConsoleEnd));
        }
        if (config.telegram().enabled()) {
            channels.add(TelegramChannel.create(config.telegram(), seen, pollers));
        }
        if (config.discord().enabled()) {
            channels.add(DiscordChannel.create(config.discord(), shards));
        }
        if (config.slack().enabled()) {
            channels.add(SlackChannel.create(config.slack(), seen));
        }
    }

    private static Map<String, Set<String>> allowLists(ChannelsConfig channels) {
        Map<String, Set<String>> lists = new HashMap<>();
        lists.put("telegram", new HashSet<>(channels.telegram().allowFrom()));
        lists.put("discord", new HashSet<>(channels.discord().allowFrom()));
        lists.put("slack", new HashSet<>(channels.slack().allowFrom()));
        return lists;
    }

    /** Restores what the store still holds, starts the channels, the scheduled jobs, then the HTTP server. */
    void start() {
        gateway.start();
        jobs.start();
        if (ops != null) {
            ops.start();
            console.start();
        }
        log.info("laneway {} started: channels={} agent={} ({}) agents={} bindings={} mainLane={} store={}{}",
                Version.current(), channels.stream().map(ChannelAdapter::name).toList(), agents.defaultAgent(),
                config.agents().defaultAgentConfig().provider(), config.agents().reachable(), agents.bindings().size(),
                config.agents().maxConcurrent(), store.describe(),
                ops == null ? "" : " http=" + config.gateway().http().bind() + ":" + ops.port());
    }

    /** The ops endpoint's port, or -1 when {@code gateway.http} is disabled or not started. */
    int opsPort() {
        return ops == null ? -1 : ops.port();
    }

    boolean consoleEnabled() {
        return channels.stream().anyMatch(channel -> channel instanceof ConsoleChannel);
    }

    /** Waits for every queued and running message to be answered (console end of input). */
    void awaitIdle(Duration timeout) throws InterruptedException {
        gateway.awaitIdle(timeout);
    }

    /**
     * Stops taking messages, lets active runs finish for the grace period, aborts the rest (their
     * messages stay in the store for the next start), then closes the store; idempotent. The ops
     * endpoint stays up until the end, with {@code /readyz} answering 503 "shutting down" from the
     * first moment, so a load balancer stops sending work while replies are still going out.
     */
    void shutdown() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        Duration grace = config.gateway().shutdownGrace();
        jobs.stop(); // no fire from here on; one already posting is kept for the next start like any message
        try {
            boolean clean = gateway.shutdown(grace);
            log.info("laneway stopped{}", clean ? "" : " (runs still active after the grace period were aborted;"
                    + " their messages run again at the next start)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (ops != null) {
                ops.stop();
            }
            if (fleet != null) {
                fleet.close(); // gives the leases back: other instances take the sessions over at once
            }
            scheduler.close();
            executor.shutdownNow();
            store.close();
        }
    }
}
