package dev.laneway.config;

import dev.laneway.config.YamlNode.MapNode;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.SteerScope;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Binds {@code messages:}. Modes and drop policies go through {@link QueueMode#parse} and
 * {@link DropPolicy#parse}, so the file accepts exactly the aliases {@code /queue} accepts.
 */
final class MessagesBinder {

    static final String MODES = ConfigKeys.QUEUE.leaf("mode").wordList();

    private MessagesBinder() {
    }

    static MessagesConfig bind(Section messages) {
        KeySpec.Obj spec = ConfigKeys.MESSAGES;
        KeySpec.Obj steerSpec = spec.obj("steer");
        Section steer = messages.section(steerSpec);
        return new MessagesConfig(
                queue(messages.section(ConfigKeys.QUEUE)),
                inbound(messages.section(ConfigKeys.INBOUND)),
                steer.choice(steerSpec.leaf("scope"), SteerScope.SESSION, MessagesBinder::steerScope),
                messages.integer(spec.leaf("maxAnswerChars")));
    }

    private static MessagesConfig.Queue queue(Section queue) {
        KeySpec.Obj spec = ConfigKeys.QUEUE;
        MessagesConfig.Queue d = MessagesConfig.Queue.DEFAULTS;
        int cap = queue.integer(spec.leaf("cap"));
        return new MessagesConfig.Queue(
                queue.choice(spec.leaf("mode"), d.mode(), QueueMode::parse),
                queue.duration(spec.leaf("debounceMs")),
                queue.optionalDuration(spec.leaf("maxWaitMs")),
                cap,
                capPerSender(queue, cap),
                queue.choice(spec.leaf("drop"), d.drop(), DropPolicy::parse),
                queue.bool(spec.leaf("notifyDrops")),
                queue.duration(spec.leaf("ttl")),
                byChannel(queue.channelSection("byChannel")));
    }

    /**
     * {@code capPerSender}: an integer from 0 to the queue's {@code cap} (docs/configuration.md §8.1), or
     * null when absent or bad (then reported).
     */
    private static Integer capPerSender(Section queue, int cap) {
        Integer part = queue.optionalInteger(ConfigKeys.QUEUE.leaf("capPerSender"));
        if (part != null && part > cap) {
            queue.problem("capPerSender", "must be an integer between 0 and messages.queue.cap (" + cap + "), got "
                    + part);
            return null;
        }
        return part;
    }

    /** Each channel is a bare mode or a mapping with any of mode, debounceMs, cap and drop. */
    private static Map<String, QueueOverride> byChannel(Section byChannel) {
        KeySpec.Obj spec = ConfigKeys.QUEUE_OVERRIDE;
        Map<String, QueueOverride> overrides = new LinkedHashMap<>();
        for (String channel : byChannel.knownKeys()) {
            YamlNode value = byChannel.value(channel);
            QueueOverride override = QueueOverride.NONE;
            if (value instanceof MapNode) {
                Section s = byChannel.section(spec.named(channel));
                override = new QueueOverride(
                        s.choice(spec.leaf("mode"), null, QueueMode::parse),
                        s.optionalDuration(spec.leaf("debounceMs")),
                        s.optionalInteger(spec.leaf("cap")),
                        s.choice(spec.leaf("drop"), null, DropPolicy::parse));
            } else if (value instanceof ScalarNode) {
                override = QueueOverride.mode(byChannel.choice(spec.leaf("mode").named(channel), null, QueueMode::parse));
            } else {
                byChannel.problem(channel, "must be a queue mode (" + MODES
                        + ") or a mapping with any of " + String.join(", ", spec.keyNames()) + "; got "
                        + YamlNode.describe(value));
            }
            if (!override.isEmpty()) {
                overrides.put(channel, override);
            }
        }
        return overrides;
    }

    private static MessagesConfig.Inbound inbound(Section inbound) {
        KeySpec.Obj spec = ConfigKeys.INBOUND;
        Section byChannel = inbound.channelSection("byChannel");
        Map<String, Duration> debounces = new LinkedHashMap<>();
        for (String channel : byChannel.knownKeys()) {
            Duration debounce = byChannel.optionalDuration(channel);
            if (debounce != null) {
                debounces.put(channel, debounce);
            }
        }
        return new MessagesConfig.Inbound(
                inbound.duration(spec.leaf("debounceMs")),
                inbound.optionalDuration(spec.leaf("maxWaitMs")),
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
