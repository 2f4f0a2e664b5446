package dev.laneway.config;

import dev.laneway.core.UrlRedactor;
import dev.laneway.core.agent.settings.AttachmentSettings;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.UrlRedactor;
import dev.laneway.core.jobs.Every;
import dev.laneway.core.jobs.ScheduledJob;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Prints the effective configuration ({@code laneway config show}): every key with its value
 * after defaults, in the file's layout, durations in milliseconds, secrets as {@code ***}, and
 * so are the credentials in a URL ({@code https://***@host}, {@code ?key=***}). The output loads
 * back into an equal config, secrets aside.
 */
public final class ConfigPrinter {

    /** Keys whose string values are never printed: tokens, secrets, API keys. */
    private static final Pattern SECRET_KEY = Pattern.compile("(?i).*(token|secret|key).*");
    private static final YAMLMapper MAPPER = new YAMLMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build());

    private ConfigPrinter() {
    }

    public static String effectiveYaml(LanewayConfig config) {
        Map<String, Object> root = new LinkedHashMap<>();
        put(root, "gateway", gateway(config.gateway()));
        put(root, "session", map("dmScope", id(config.session().dm()), "groupScope", id(config.session().group())));
        put(root, "lanes", lanes(config.lanes()));
        put(root, "agents", AgentPrinter.agents(config.agents()));
        if (!config.providers().isEmpty()) {
            put(root, "providers", AgentPrinter.providers(config.providers()));
        }
        put(root, "messages", messages(config.messages()));
        put(root, "commands", map("allowFrom", config.commands().allowFrom()));
        put(root, "channels", ChannelPrinter.channels(config.channels()));
        put(root, SchedulesBinder.KEY, config.schedules().stream().map(ConfigPrinter::job).toList());
        put(root, "attachments", attachments(config.attachments()));
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot print config", e);
        }
    }

    /** {@code attachments:} (docs/configuration.md §16); the transcription key is a secret like every key. */
    private static Map<String, Object> attachments(AttachmentSettings a) {
        Map<String, Object> out = map("maxFileBytes", a.maxFileBytes(), "maxMessageBytes", a.maxMessageBytes(),
                "fetchTimeoutMs", a.fetchTimeout().toMillis(), "inlineTextChars", a.inlineTextChars());
        if (a.transcription() != null) {
            out.put("transcription", map("baseUrl", UrlRedactor.redact(a.transcription().baseUrl()),
                    "model", a.transcription().model(), "apiKey", new Secret(a.transcription().apiKey()),
                    "timeoutMs", a.transcription().timeout().toMillis()));
        }
        return out;
    }

    private static Map<String, Object> gateway(GatewayConfig gateway) {
        Map<String, Object> out = map("dataDir", gateway.dataDir().toString(),
                "http", map("enabled", gateway.http().enabled(), "bind", gateway.http().bind(),
                        "port", gateway.http().port(), "adminToken", gateway.http().adminToken()),
                "admission", map("maxPendingRuns", gateway.admission().maxPendingRuns()),
                "shutdownGraceMs", millis(gateway.shutdownGrace()),
                "store", store(gateway.store()));
        if (gateway.store().kind() == GatewayConfig.Store.Kind.REDIS) { // gateway.fleet is Redis's only
            out.put("fleet", map("leaseTtlMs", millis(gateway.fleet().leaseTtl()),
                    "renewEveryMs", millis(gateway.fleet().renewEvery())));
        }
        return out;
    }

    /** {@code gateway.store}: the URL with its credentials masked. */
    private static Map<String, Object> store(GatewayConfig.Store store) {
        return store.kind() == GatewayConfig.Store.Kind.SQLITE ? map("kind", "sqlite")
                : map("kind", "redis", "url", url(store.url()), "fleet", store.fleet());
    }

    private static Map<String, Object> lanes(LanesConfig lanes) {
        Map<String, Object> out = map("warnAfterMs", millis(lanes.warnAfter()));
        lanes.caps().forEach((lane, cap) -> put(out, lane, map("maxConcurrent", cap)));
        return out;
    }

    private static Map<String, Object> messages(MessagesConfig messages) {
        MessagesConfig.Queue q = messages.queue();
        Map<String, Object> byChannel = new LinkedHashMap<>();
        // Channel names are the user's, so they bypass the secret-key check of put().
        q.byChannel().forEach((channel, override) -> byChannel.put(channel, override(override)));
        Map<String, Object> inboundByChannel = new LinkedHashMap<>();
        messages.inbound().byChannel().forEach((channel, d) -> inboundByChannel.put(channel, millis(d)));
        return map(
                "queue", map("mode", q.mode().id(), "debounceMs", millis(q.debounce()), "maxWaitMs", millis(q.maxWait()),
                        "cap", q.cap(), "capPerSender", q.capPerSender(), "drop", q.drop().id(), "notifyDrops", q.notifyDrops(), "ttl", millis(q.ttl()),
                        "byChannel", byChannel),
                "inbound", map("debounceMs", millis(messages.inbound().debounce()),
                        "maxWaitMs", millis(messages.inbound().maxWait()), "byChannel", inboundByChannel),
                "steer", map("scope", id(messages.steerScope())),
                "maxAnswerChars", messages.maxAnswerChars());
    }

    private static Map<String, Object> job(ScheduledJob job) {
        Map<String, Object> out = map("id", job.id());
        switch (job.schedule()) {
            case CronSchedule cron -> put(out, "cron", cron.expression());
            case Every every -> put(out, "every", millis(every.interval()));
            default -> put(out, "schedule", job.schedule().describe());
        }
        put(out, "timezone", job.zone().getId());
        Map<String, Object> target = map("channel", job.target().channel(), "chat", job.target().chatId());
        if (job.target().space() != null) {
            put(target, "space", job.target().space());
        }
        if (job.target().threadId() != null) {
            put(target, "thread", job.target().threadId());
        }
        put(out, "target", target);
        put(out, "prompt", job.prompt());
        if (job.agent() != null) {
            put(out, "agent", job.agent());
        }
        put(out, "ifBusy", job.ifBusy().id());
        put(out, "catchUp", millis(job.catchUp()));
        return out;
    }

    /** A mode-only override as the bare mode, otherwise the keys it sets. */
    private static Object override(QueueOverride o) {
        if (o.mode() != null && o.debounce() == null && o.cap() == null && o.drop() == null) {
            return o.mode().id();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (o.mode() != null) {
            put(out, "mode", o.mode().id());
        }
        if (o.debounce() != null) {
            put(out, "debounceMs", millis(o.debounce()));
        }
        if (o.cap() != null) {
            put(out, "cap", o.cap());
        }
        if (o.drop() != null) {
            put(out, "drop", o.drop().id());
        }
        return out;
    }

    /** An ordered map of key, value pairs, masking secrets. */
    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            put(out, (String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return out;
    }

    static void put(Map<String, Object> map, String key, Object value) {
        Object shown = switch (value) {
            case Secret secret -> secret.masked();
            case String text when SECRET_KEY.matcher(key).matches() -> text.isEmpty() ? "" : "***";
            case null, default -> value;
        };
        map.put(key, shown);
    }

    /** A URL-valued key's value, its credentials masked. */
    static String url(Object url) {
        return UrlRedactor.redact(String.valueOf(url));
    }

    static Long millis(Duration duration) {
        return duration == null ? null : duration.toMillis();
    }

    /** The config spelling of an enum constant: {@code PER_PEER} -> {@code per-peer}. */
    static String id(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
