package dev.laneway.config;

import dev.laneway.config.YamlNode.MapNode;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.SteerScope;
import dev.laneway.core.engine.GatewaySettings;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Binds {@code messages:}. Modes and drop policies go through {@link QueueMode#parse} and
 * {@link DropPolicy#parse}, so the file accepts exactly the aliases {@code /queue} accepts.
 */
final class MessagesBinder {

    static final String MODES = Arrays.stream(QueueMode.values()).map(QueueMode::id).collect(Collectors.joining(", "));
    static final String DROPS = Arrays.stream(DropPolicy.values()).map(DropPolicy::id).collect(Collectors.joining(", "));
    private static final String[] OVERRIDE_KEYS = {"mode", "debounceMs", "cap", "drop"};

    private MessagesBinder() {
    }

    static MessagesConfig bind(Section messages) {
        Section steer = messages.section("steer", "scope");
        return new MessagesConfig(
                queue(messages.section("queue", "mode", "debounceMs", "maxWaitMs", "cap", "capPerSender", "drop",
                        "notifyDrops", "ttl", "byChannel")),
                inbound(messages.section("inbound", "debounceMs", "maxWaitMs", "byChannel")),
                steer.choice("scope", SteerScope.SESSION, MessagesBinder::steerScope, "session, sender"),
                messages.integer("maxAnswerChars", GatewaySettings.DEFAULT_ANSWER_CHARS, GatewaySettings.MIN_ANSWER_CHARS,
                        Integer.MAX_VALUE));
    }

    private static MessagesConfig.Queue queue(Section queue) {
        MessagesConfig.Queue d = MessagesConfig.Queue.DEFAULTS;
        int cap = queue.integer("cap", d.cap(), 1, Integer.MAX_VALUE);
        return new MessagesConfig.Queue(
                queue.choice("mode", d.mode(), QueueMode::parse, MODES),
                queue.duration("debounceMs", d.debounce()),
                queue.optionalDuration("maxWaitMs"),
                cap,
                capPerSender(queue, cap),
                queue.choice("drop", d.drop(), DropPolicy::parse, DROPS),
                queue.bool("notifyDrops", d.notifyDrops()),
                queue.duration("ttl", d.ttl()),
                byChannel(queue.channelSection("byChannel")));
    }

    /**
     * {@code capPerSender}: an integer from 0 to the queue's {@code cap} (docs/configuration.md §8.1), or
     * null when absent or bad (then reported).
     */
    private static Integer capPerSender(Section queue, int cap) {
        Integer part = queue.optionalInteger("capPerSender", 0, Integer.MAX_VALUE);
        if (part != null && part > cap) {
            queue.problem("capPerSender", "must be an integer between 0 and messages.queue.cap (" + cap + "), got "
                    + part);
            return null;
        }
        return part;
    }

    /** Each channel is a bare mode or a mapping with any of mode, debounceMs, cap and drop. */
    private static Map<String, QueueOverride> byChannel(Section byChannel) {
        Map<String, QueueOverride> overrides = new LinkedHashMap<>();
        for (String channel : byChannel.knownKeys()) {
            YamlNode value = byChannel.value(channel);
            QueueOverride override = QueueOverride.NONE;
            if (value instanceof MapNode) {
                Section s = byChannel.section(channel, OVERRIDE_KEYS);
                override = new QueueOverride(
                        s.choice("mode", null, QueueMode::parse, MODES),
                        s.optionalDuration("debounceMs"),
                        s.optionalInteger("cap", 1, Integer.MAX_VALUE),
                        s.choice("drop", null, DropPolicy::parse, DROPS));
            } else if (value instanceof ScalarNode) {
                override = QueueOverride.mode(byChannel.choice(channel, null, QueueMode::parse, MODES));
            } else {
                byChannel.problem(channel, "must be a queue mode (" + MODES
                        + ") or a mapping with any of mode, debounceMs, cap, drop; got " + YamlNode.describe(value));
            }
            if (!override.isEmpty()) {
                overrides.put(channel, override);
            }
        }
        return overrides;
    }

    private static MessagesConfig.Inbound inbound(Section inbound) {
        MessagesConfig.Inbound d = MessagesConfig.Inbound.DEFAULTS;
        Section byChannel = inbound.channelSection("byChannel");
        Map<String, Duration> debounces = new LinkedHashMap<>();
        for (String channel : byChannel.knownKeys()) {
            Duration debounce = byChannel.optionalDuration(channel);
            if (debounce != null) {
                debounces.put(channel, debounce);
            }
        }
        return new MessagesConfig.Inbound(
                inbound.duration("debounceMs", d.debounce()),
                inbound.optionalDuration("maxWaitMs"),
                debounces);
    }

    private static Optional<SteerScope> steerScope(String raw) {
        return Optional.ofNullable(switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "session" -> SteerScope.SESSION;
            case "sender" -> SteerScope.SENDER;
            default -> null;
        });
    }
}
