package dev.laneway.app.ops;

import dev.laneway.channels.discord.DiscordChannel;
import dev.laneway.channels.telegram.TelegramChannel;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.store.redis.FleetReport;
import java.util.ArrayList;
import java.util.List;

/**
 * Who takes each platform's updates in a fleet (docs/behaviour.md §17, "Ingress"), for
 * {@code laneway fleet} and {@code /status}: Telegram in polling mode is polled by the holder of its
 * poller lease, and each Discord shard by the holder of that shard's lease; Telegram's webhook and
 * Slack's Socket Mode are taken by every instance. Every instance has the same configuration,
 * so this instance's is the fleet's. Stateless.
 */
public final class FleetIngress {

    /**
     * One channel's ingress as configured.
     *
     * @param channel the channel's name
     * @param mode    {@code polling}, {@code webhook}, {@code socket-mode} or {@code gateway}
     * @param lease   the lease whose holder takes the updates ({@code ingress:telegram:<16 hex>},
     *                {@code ingress:discord:<16 hex>:shard-<i>-of-<n>}), or null when every instance
     *                takes them
     */
    public record Plan(String channel, String mode, String lease) {
    }

    /**
     * One channel's ingress now.
     *
     * @param channel   the channel's name
     * @param mode      as {@link Plan#mode()}
     * @param lease     as {@link Plan#lease()}
     * @param instances the instances that take its updates: the lease's holder (none while nobody
     *                  holds it), or every live instance
     */
    public record Holders(String channel, String mode, String lease, List<String> instances) {

        public Holders {
            instances = List.copyOf(instances);
        }
    }

    private FleetIngress() {
    }

    /** The enabled platforms' ingress (the console channel is every instance's own and not listed). */
    public static List<Plan> plan(ChannelsConfig channels) {
        List<Plan> plans = new ArrayList<>();
        ChannelsConfig.Telegram telegram = channels.telegram();
        if (telegram.enabled()) {
            plans.add(telegram.webhook() != null ? new Plan("telegram", "webhook", null)
                    : new Plan("telegram", "polling", TelegramChannel.pollerLease(telegram.token().value())));
        }
        if (channels.slack().enabled()) {
            plans.add(new Plan("slack", "socket-mode", null));
        }
        ChannelsConfig.Discord discord = channels.discord();
        if (discord.enabled()) { // one lease per shard (docs/decisions.md D220)
            for (String lease : DiscordChannel.shardLeases(discord.token().value(), discord.shards())) {
                plans.add(new Plan("discord", "gateway", lease));
            }
        }
        return plans;
    }

    /** The leases to ask Redis about. */
    public static List<String> leases(List<Plan> plans) {
        return plans.stream().map(Plan::lease).filter(java.util.Objects::nonNull).toList();
    }

    /** Each plan with the instances that take its updates in {@code report}. */
    public static List<Holders> holders(List<Plan> plans, FleetReport report) {
        List<String> everyone = report.instances().stream().map(FleetReport.Member::id).toList();
        List<Holders> holders = new ArrayList<>(plans.size());
        for (Plan plan : plans) {
            List<String> instances = everyone;
            if (plan.lease() != null) {
                String holder = report.ingress().stream().filter(lease -> lease.name().equals(plan.lease()))
                        .map(FleetReport.IngressLease::holder).filter(java.util.Objects::nonNull).findFirst().orElse(null);
                instances = holder == null ? List.of() : List.of(holder);
            }
            holders.add(new Holders(plan.channel(), plan.mode(), plan.lease(), instances));
        }
        return holders;
    }
}
