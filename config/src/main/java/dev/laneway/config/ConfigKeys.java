package dev.laneway.config;

import dev.laneway.config.KeySpec.Either;
import dev.laneway.config.KeySpec.Leaf;
import dev.laneway.config.KeySpec.ListOf;
import dev.laneway.config.KeySpec.MapOf;
import dev.laneway.config.KeySpec.Obj;
import dev.laneway.config.KeySpec.Type;
import dev.laneway.config.KeySpec.Variants;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.agent.settings.AttachmentSettings;
import dev.laneway.core.agent.settings.CommandSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.jobs.IfBusy;
import dev.laneway.core.scheduling.ClassPolicy;
import dev.laneway.core.scheduling.MessageKind;
import dev.laneway.core.scheduling.OverBudget;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.scheduling.TenantLimits;
import dev.laneway.core.scheduling.Tenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every key of {@code laneway.yaml} (docs/configuration.md): which keys each mapping accepts, and each
 * value's type, range, words and default. The binders read their keys from here and {@link ConfigSchema}
 * turns the same tree into a JSON Schema (docs/configuration.md §18, docs/decisions.md D160). Defaults
 * and bounds are the constants of the records the binders build, never copies of them.
 */
final class ConfigKeys {

    private static final int MAX = Integer.MAX_VALUE;
    private static final List<String> HTTP = Urls.HTTP;

    // --- gateway (docs/configuration.md §4) ---
    static final Obj HTTP_SERVER = obj("http", "the ops server: health, readiness, metrics, status",
            bool("enabled", GatewayConfig.Http.DEFAULTS.enabled(), "serve the ops endpoints"),
            text("bind", GatewayConfig.Http.DEFAULTS.bind(), "the address the ops server listens on"),
            integer("port", GatewayConfig.Http.DEFAULTS.port(), 0, 65535, "the ops port (0: any free port)"),
            secret("adminToken", "the token the console's admin actions need, at least 16 characters (write"
                    + " ${LANEWAY_ADMIN_TOKEN}); required when bind is not a loopback address (docs/behaviour.md §18)"));
    static final Obj STORE = obj("store", "where sessions, history and queued messages live",
            word("kind", "sqlite", List.of("sqlite", "redis"), List.of(), "sqlite (in dataDir) or redis"),
            leaf("url", Type.URL, null, null, null, List.of("redis", "rediss"),
                    "redis://[user:password@]host[:port][/db], with kind: redis (default "
                            + GatewayConfig.Store.DEFAULT_URL + ")"),
            text("fleet", null, "the fleet's name in every Redis key, required with kind: redis"));
    static final Obj FLEET = obj("fleet", "the fleet's lease timings, with store.kind: redis (docs/configuration.md §17)",
            duration("leaseTtlMs", GatewayConfig.Fleet.DEFAULT_LEASE_TTL,
                    "a lease, permit or heartbeat not renewed for this long expires: a dead instance's sessions"
                            + " are taken over after it (1s to 1h)"),
            duration("renewEveryMs", null,
                    "how often an instance renews its leases and sweeps for sessions to take over; at least"
                            + " 100ms, at most a third of leaseTtlMs (default: a third of leaseTtlMs)"));
    static final Obj GATEWAY = obj("gateway", "the process: data, ops server, admission, shutdown, store, fleet",
            text("dataDir", GatewayConfig.DEFAULTS.dataDir().toString(), "the SQLite store's directory"),
            HTTP_SERVER,
            obj("admission", "how much work is accepted",
                    integer("maxPendingRuns", GatewayConfig.Admission.DEFAULTS.maxPendingRuns(), 0, MAX,
                            "refuse new runs beyond this many waiting (docs/behaviour.md §8.4)")),
            duration("shutdownGraceMs", GatewayConfig.DEFAULTS.shutdownGrace(), "time to finish work on SIGTERM"),
            STORE, FLEET);

    // --- session, lanes (§5, §6) ---
    static final Obj SESSION = obj("session", "which messages share a conversation",
            word("dmScope", "per-peer", List.of("per-peer", "main"), List.of(), "direct messages: one session per peer, or one"),
            word("groupScope", "thread", List.of("thread", "chat", "sender"), List.of(), "groups: per thread, chat or sender"));
    static final Obj LANE = obj("", "a lane", integer("maxConcurrent", null, 1, MAX, "runs at once in this lane"));
    static final MapOf LANES = new MapOf("lanes",
            List.of(duration("warnAfterMs", LanesConfig.DEFAULTS.warnAfter(), "log a wait in a lane longer than this")),
            LANE, null, List.of("main"), "lane caps by lane name (main's cap is agents.defaults.maxConcurrent)");

    // --- agents (§7) ---
    static final Obj AGENT_DEFAULTS = obj("defaults", "for every agent",
            integer("maxConcurrent", AgentsConfig.DEFAULTS.maxConcurrent(), 1, MAX, "runs at once in the main lane"),
            text("agent", null, "the agent that answers where no binding matches"),
            bool("fallbackNotice", false, "tell the user when a fallback agent answers"));
    static final List<KeySpec> AGENT_ROUTE_KEYS = List.of(
            strings("fallback", List.of(), "agents tried in order when this one fails"),
            bool("fallbackNotice", null, "tell the user when a fallback answers (default: agents.defaults)"));
    private static final Leaf PROVIDER = word("provider", null, AgentSettings.PROVIDERS, List.of(), "the agent's kind");
    private static final Leaf RUN_TIMEOUT = duration("runTimeoutMs", AgentSettings.DEFAULT_RUN_TIMEOUT,
            "the longest one run may take");
    static final Obj ECHO = agent("echo",
            duration("delayMs", Duration.ZERO, "wait before echoing (makes the queue visible)"));
    static final Obj OPENAI = agent("openai",
            text("endpoint", null, "a providers entry to call instead of baseUrl, apiKey and model"),
            leaf("baseUrl", Type.URL, OpenAiSettings.DEFAULT_BASE_URL, null, null, HTTP,
                    "an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1 for Ollama"),
            secret("apiKey", "the API key (write ${OPENAI_API_KEY})"),
            text("model", null, "the model name, e.g. gpt-4o-mini"),
            leaf("systemPrompt", Type.STRING, "", null, null, List.of(), "the system prompt"),
            bool("stream", true, "stream the answer"),
            duration("timeoutMs", OpenAiSettings.DEFAULT_TIMEOUT, "one request's timeout"),
            integer("maxHistoryMessages", OpenAiSettings.DEFAULT_MAX_HISTORY_MESSAGES, 0,
                    OpenAiSettings.MAX_HISTORY_MESSAGES, "history messages sent with each turn"),
            number("temperature", null, null, null, "sampling temperature, 0 to 2"),
            integer("maxTokens", null, 1, MAX, "the most tokens an answer may have"),
            integer("maxRetries", OpenAiSettings.DEFAULT_MAX_RETRIES, 0, OpenAiSettings.MAX_RETRIES,
                    "retries of a failed request"),
            leaf("tools", Type.STRINGS, null, null, null, OpenAiSettings.KNOWN_TOOLS, "built-in tools the model may call"),
            bool("vision", false, "the model takes images (docs/behaviour.md §15.2)"),
            word("images", "data-url", List.of("data-url", "url"), List.of(),
                    "how a vision model gets an image: a data URL, or the platform's URL when anyone may fetch it"));
    static final Obj COMMAND = agent("command",
            strings("command", null, "the program and its arguments, e.g. [my-agent, --json]"),
            duration("timeoutMs", CommandSettings.DEFAULT_TIMEOUT, "one call's timeout"));
    static final Variants AGENT_LIST = new Variants("list", "provider",
            orderedMap(List.of(ECHO, OPENAI, COMMAND), o -> ((Leaf) o.keys().getFirst()).words().getFirst()),
            "the agents by name; each has a provider");
    static final Obj BINDING = new Obj("", List.of(
            word("channel", null, ChannelsConfig.NAMES, List.of(), "the message's channel"),
            text("account", null, "the bot account"),
            text("guild", null, "a Discord guild (the message's space)"),
            text("workspace", null, "a Slack workspace (the message's space)"),
            text("space", null, "the message's space, any platform"),
            text("chat", null, "a chat or channel id"),
            text("thread", null, "a thread id"),
            bool("dm", null, "direct messages only (true) or groups only (false)"),
            text("agent", null, "the agent that answers")), List.of("agent"), "a binding: conditions and an agent");
    static final Obj AGENTS = obj("agents", "who answers",
            AGENT_DEFAULTS, AGENT_LIST,
            new ListOf("bindings", BINDING, "which agent answers where; the first match wins"));

    // --- messages (§8) ---
    private static final Leaf MODE = word("mode", MessagesConfig.Queue.DEFAULTS.mode().id(),
            Arrays.stream(QueueMode.values()).map(QueueMode::id).toList(),
            Arrays.stream(QueueMode.values()).flatMap(m -> m.aliases().stream()).toList(),
            "what a message does while its conversation is busy");
    private static final Leaf DROP = word("drop", MessagesConfig.Queue.DEFAULTS.drop().id(),
            Arrays.stream(DropPolicy.values()).map(DropPolicy::id).toList(),
            Arrays.stream(DropPolicy.values()).flatMap(d -> d.aliases().stream()).toList(),
            "what goes when the queue is full");
    static final Obj QUEUE_OVERRIDE = obj("", "a channel's queue settings",
            MODE.withDefault(null), duration("debounceMs", null, "quiet time before a queued turn starts"),
            integer("cap", null, 1, MAX, "queued messages per conversation"), DROP.withDefault(null));
    static final Obj QUEUE = obj("queue", "the queue of a busy conversation (docs/behaviour.md §3)",
            MODE,
            duration("debounceMs", MessagesConfig.Queue.DEFAULTS.debounce(), "quiet time before a queued turn starts"),
            duration("maxWaitMs", null, "the longest debounce may delay a turn"),
            integer("cap", MessagesConfig.Queue.DEFAULTS.cap(), 1, MAX, "queued messages per conversation"),
            integer("capPerSender", null, 0, MAX, "queued messages per sender, at most cap"),
            DROP,
            bool("notifyDrops", MessagesConfig.Queue.DEFAULTS.notifyDrops(), "tell the sender when a message is dropped"),
            duration("ttl", MessagesConfig.Queue.DEFAULTS.ttl(), "how long a queued message may wait"),
            new MapOf("byChannel", List.of(), new Either("", MODE.withDefault(null), QUEUE_OVERRIDE,
                    "a mode, or a mapping of mode, debounceMs, cap, drop"),
                    ChannelsConfig.NAMES, List.of(), "per-channel queue settings"));
    static final Obj INBOUND = obj("inbound", "debounce of messages arriving while idle",
            duration("debounceMs", MessagesConfig.Inbound.DEFAULTS.debounce(), "wait for more messages before a run"),
            duration("maxWaitMs", null, "the longest the inbound debounce may delay a run"),
            new MapOf("byChannel", List.of(), duration("", null, "this channel's inbound debounce"),
                    ChannelsConfig.NAMES, List.of(), "per-channel inbound debounce"));
    static final Obj MESSAGES = obj("messages", "queueing, debounce, steering, answer length",
            QUEUE, INBOUND,
            obj("steer", "steering", word("scope", "session", List.of("session", "sender"), List.of(),
                    "who may steer a run")),
            integer("maxAnswerChars", GatewaySettings.DEFAULT_ANSWER_CHARS, GatewaySettings.MIN_ANSWER_CHARS, MAX,
                    "longer answers are cut"));

    // --- commands, channels (§9, §10) ---
    static final Obj COMMANDS = obj("commands", "who may use the commands",
            new MapOf("allowFrom", List.of(), strings("", null, "user ids"), ChannelsConfig.NAMES, List.of(),
                    "per channel, the users who may use /queue, /stop, /new"));
    static final Obj TELEGRAM = obj("telegram", "the Telegram bot",
            bool("enabled", false, "run the Telegram channel"),
            secret("token", "the bot token from @BotFather (write ${TELEGRAM_BOT_TOKEN})"),
            leaf("apiUrl", Type.URL, ChannelsConfig.Telegram.DEFAULT_API_URL.toString(), null, null, HTTP,
                    "the Bot API server's root"),
            strings("allowFrom", List.of(), "user ids allowed to talk to the bot (empty: everyone)"),
            obj("groups", "in groups", bool("requireMention", true, "answer only when mentioned")),
            streaming(), streamingInterval(ChannelsConfig.Telegram.DEFAULT_STREAMING), receipts(),
            bool("drafts", true, "on or off: in private chats, stream an answer as a draft (sendMessageDraft) and"
                    + " send its final text; off: send, then edit there too"),
            word("mode", "polling", List.of("polling", "webhook"), List.of(),
                    "polling (one instance of a fleet polls) or webhook (every instance takes updates over HTTP)"),
            obj("webhook", "with mode: webhook (docs/behaviour.md §17, Ingress)",
                    leaf("url", Type.URL, null, null, null, HTTP, "the public address Telegram posts to"),
                    text("listen", TelegramWebhook.DEFAULT_LISTEN, "host:port each instance listens on"),
                    text("path", TelegramWebhook.DEFAULT_PATH, "the request path taken"),
                    secret("secretToken", "checked against X-Telegram-Bot-Api-Secret-Token (write"
                            + " ${TELEGRAM_WEBHOOK_SECRET})")));
    static final Obj DISCORD = obj("discord", "the Discord bot",
            bool("enabled", false, "run the Discord channel"),
            secret("token", "the bot token (write ${DISCORD_BOT_TOKEN})"),
            leaf("apiUrl", Type.URL, ChannelsConfig.Discord.DEFAULT_API_URL.toString(), null, null, HTTP,
                    "the REST API"),
            leaf("gatewayUrl", Type.URL, ChannelsConfig.Discord.DEFAULT_GATEWAY_URL.toString(), null, null,
                    Urls.WEBSOCKET, "the gateway websocket"),
            strings("allowFrom", List.of(), "user ids allowed to talk to the bot (empty: everyone)"),
            obj("guilds", "in guilds", bool("requireMention", true, "answer only when mentioned")),
            streaming(), streamingInterval(ChannelsConfig.Discord.DEFAULT_STREAMING), receipts(),
            integer("shards", ChannelsConfig.Discord.DEFAULT_SHARDS, 1, MAX,
                    "the bot's total shard count; a fleet shares the shards out (docs/behaviour.md §17, Ingress)"));
    static final Obj SLACK = obj("slack", "the Slack app",
            bool("enabled", false, "run the Slack channel"),
            secret("botToken", "the bot token xoxb-... (write ${SLACK_BOT_TOKEN})"),
            secret("appToken", "the app-level token xapp-... for Socket Mode (write ${SLACK_APP_TOKEN})"),
            leaf("apiUrl", Type.URL, ChannelsConfig.Slack.DEFAULT_API_URL.toString(), null, null, HTTP, "the Web API"),
            strings("allowFrom", List.of(), "user ids allowed to talk to the bot (empty: everyone)"),
            obj("channels", "in channels", bool("requireMention", true, "answer only when mentioned")),
            streaming(), streamingInterval(ChannelsConfig.Slack.DEFAULT_STREAMING), receipts(),
            bool("streamMethods", true, "on or off: in a thread, stream with chat.startStream / appendStream /"
                    + " stopStream; off: chat.postMessage, then chat.update"));
    static final Obj CHANNELS = obj("channels", "the chat platforms",
            obj("console", "the terminal chat",
                    bool("enabled", null, "default: on only when no other channel is enabled")),
            TELEGRAM, DISCORD, SLACK);

    // --- scheduling, schedules, providers (§13, §14, §15) ---
    static final Obj TENANT_LIMITS = obj("", "a tenant's share",
            integer("weight", TenantLimits.DEFAULT.weight(), 1, TenantLimits.MAX_WEIGHT, "its share of main's slots"),
            integer("maxRunning", TenantLimits.DEFAULT.maxRunning(), 0, MAX, "runs at once (0: no limit)"),
            integer("maxPending", TenantLimits.DEFAULT.maxPending(), 0, MAX, "runs waiting (0: no limit)"));
    static final Obj TENANTS = obj("tenants", "how main's slots are shared among tenants",
            concat(List.of(word("scope", Tenants.Scope.SPACE.configName(), configNames(Tenants.Scope.values(),
                            Tenants.Scope::configName), List.of(), "a tenant is a space or a chat")),
                    TENANT_LIMITS.keys(),
                    List.of(new MapOf("overrides", List.of(), TENANT_LIMITS, null, List.of(),
                            "limits of single tenants by id"))));
    static final Obj RULE = new Obj("", List.of(
            word("channel", null, ChannelsConfig.NAMES, List.of(), "the message's channel"),
            leaf("chat", Type.STRING, null, null, null, List.of(), "a chat id"),
            leaf("kinds", Type.STRINGS, null, null, null, configNames(MessageKind.values(), MessageKind::configName),
                    "message kinds"),
            classWord("class", null)), List.of("class"), "a rule: which messages get which class");
    static final Obj SCHEDULING = obj("scheduling", "how main shares its slots among classes and tenants",
                    word("mode", SchedulingSettings.defaults().mode().configName(),
                            configNames(SchedulingSettings.Mode.values(), SchedulingSettings.Mode::configName),
                            List.of(), "fair shares, or first come first served"),
                    duration("agingAfter", SchedulingSettings.DEFAULT_AGING_AFTER, "background work waiting longer moves up"),
                    number("backgroundShare", SchedulingSettings.DEFAULT_BACKGROUND_SHARE, 0.01, 1,
                            "the most of main's slots background work holds while others wait"),
                    duration("initialRunTime", SchedulingSettings.DEFAULT_INITIAL_RUN_TIME,
                            "the guess of a run's time before any was measured"),
                    classes(), TENANTS,
                    new ListOf("rules", RULE, "which messages get which class; the first match wins"));
    static final Obj TARGET = new Obj("target", List.of(
            word("channel", null, ChannelsConfig.NAMES, List.of(), "an enabled channel"),
            text("chat", null, "the platform's chat or channel id"),
            leaf("thread", Type.STRING, null, null, null, List.of(), "a thread id"),
            leaf("space", Type.STRING, null, null, null, List.of(), "the platform space (a guild, a workspace)")),
            List.of("channel", "chat"), "where the job posts");
    static final Obj JOB = new Obj("", List.of(
            text("id", null, "the job's name, unique"),
            text("cron", null, "a cron expression, e.g. \"0 8 * * 1-5\" (or every)"),
            duration("every", null, "an interval, e.g. 30m (or cron)"),
            text("timezone", "UTC", "an IANA zone for cron, e.g. Europe/Berlin"),
            TARGET,
            text("prompt", null, "the text the agent gets at each fire"),
            text("agent", null, "the agent that answers (default: the target's binding)"),
            word("ifBusy", IfBusy.WAIT.id(), Arrays.stream(IfBusy.values()).map(IfBusy::id).toList(), List.of(),
                    "what a fire does while the conversation is busy"),
            duration("catchUp", Duration.ZERO, "run a fire missed while down if it is at most this late")),
            List.of("id", "target", "prompt"), "a scheduled job");
    static final ListOf SCHEDULES = new ListOf("schedules", JOB, "jobs that post an agent's answer on a schedule");
    static final Obj CIRCUIT = obj("circuit", "stop calling an endpoint that keeps failing",
            integer("failures", ProviderSettings.Circuit.DEFAULTS.failures(), 0, ProviderSettings.Circuit.MAX_FAILURES,
                    "failures in the window that open the circuit (0: off)"),
            duration("window", ProviderSettings.Circuit.DEFAULTS.window(), "1s to 1h"),
            duration("openFor", ProviderSettings.Circuit.DEFAULTS.openFor(), "1s to 1h"));
    static final Obj PROVIDER_ENTRY = new Obj("", List.of(
            leaf("baseUrl", Type.URL, OpenAiSettings.DEFAULT_BASE_URL, null, null, HTTP, "an OpenAI-compatible API"),
            secret("apiKey", "the API key (write ${NAME})"),
            text("model", null, "the model name"),
            integer("maxConcurrent", 0, 0, ProviderSettings.MAX_CONCURRENT, "requests at once (0: no limit)"),
            integer("rpm", 0, 0, ProviderSettings.MAX_RPM, "requests per minute (0: no limit)"),
            integer("tpm", 0, 0, ProviderSettings.MAX_TPM, "tokens per minute (0: no limit)"),
            bool("adaptive", false, "shrink the limit on 429s, grow it back to maxConcurrent"),
            CIRCUIT), List.of("model"), "a model endpoint and its limits");
    static final MapOf PROVIDERS = new MapOf("providers", List.of(), PROVIDER_ENTRY, null, List.of(),
            "named model endpoints whose runs share limits");

    // --- attachments (§16) ---
    static final Obj TRANSCRIPTION = new Obj("transcription", List.of(
            leaf("baseUrl", Type.URL, null, null, null, HTTP,
                    "an OpenAI-compatible API; voice notes go to <baseUrl>/audio/transcriptions"),
            text("model", null, "the transcription model, e.g. whisper-1"),
            secret("apiKey", "the API key (write ${NAME})"),
            duration("timeoutMs", AttachmentSettings.DEFAULT_TRANSCRIPTION_TIMEOUT, "one transcription's timeout")),
            List.of("baseUrl", "model"), "where voice notes and audio are transcribed (unset: they are not)");
    static final Obj ATTACHMENTS = obj("attachments", "files, photos and voice notes (docs/behaviour.md §15)",
            integer("maxFileBytes", (int) AttachmentSettings.DEFAULT_MAX_FILE_BYTES, 1, MAX, "the largest file fetched"),
            integer("maxMessageBytes", (int) AttachmentSettings.DEFAULT_MAX_MESSAGE_BYTES, 1, MAX,
                    "the most bytes fetched for one message's files together (at least maxFileBytes)"),
            duration("fetchTimeoutMs", AttachmentSettings.DEFAULT_FETCH_TIMEOUT, "one file's fetch timeout"),
            integer("inlineTextChars", AttachmentSettings.DEFAULT_INLINE_TEXT_CHARS, 0, MAX,
                    "characters of a text file the model gets"),
            TRANSCRIPTION);

    static final Obj ROOT = obj("", "laneway.yaml",
            GATEWAY, SESSION, LANES, AGENTS, MESSAGES, COMMANDS, CHANNELS, SCHEDULING, SCHEDULES, PROVIDERS, ATTACHMENTS);

    private ConfigKeys() {
    }

    private static Obj agent(String provider, KeySpec... own) {
        List<KeySpec> keys = new ArrayList<>();
        keys.add(new Leaf(PROVIDER.name(), Type.WORD, null, null, null, List.of(provider), List.of(), PROVIDER.about()));
        keys.addAll(List.of(own));
        keys.add(RUN_TIMEOUT);
        keys.addAll(AGENT_ROUTE_KEYS);
        return new Obj("", keys, List.of("provider"), "an agent with provider: " + provider);
    }

    private static Obj classes() {
        Map<PriorityClass, ClassPolicy> defaults = SchedulingSettings.defaultClasses();
        List<KeySpec> keys = new ArrayList<>();
        for (PriorityClass priority : PriorityClass.values()) {
            ClassPolicy d = defaults.get(priority);
            keys.add(obj(priority.configName(), "the " + priority.configName() + " class",
                    duration("budget", d.budget(), "the longest a run of this class should wait (at most 1d)"),
                    word("overBudget", d.overBudget().configName(), configNames(OverBudget.values(), OverBudget::configName),
                            List.of(), "what happens to a run whose wait would exceed the budget")));
        }
        return new Obj("classes", keys, List.of(), "per priority class");
    }

    private static Leaf classWord(String name, String defaultValue) {
        return word(name, defaultValue, configNames(PriorityClass.values(), PriorityClass::configName), List.of(),
                "a priority class");
    }

    private static <E> List<String> configNames(E[] values, Function<E, String> name) {
        return Arrays.stream(values).map(name).toList();
    }

    private static Map<String, Obj> orderedMap(List<Obj> objs, Function<Obj, String> key) {
        Map<String, Obj> map = new LinkedHashMap<>();
        objs.forEach(o -> map.put(key.apply(o), o));
        return Immutable.orderedMap(map);
    }

    private static List<KeySpec> concat(List<? extends KeySpec> a, List<? extends KeySpec> b, List<? extends KeySpec> c) {
        List<KeySpec> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(c);
        return all;
    }

    /** {@code streaming: on | off} of a platform channel (docs/behaviour.md §16). */
    private static Leaf streaming() {
        // YAML reads an unquoted on / off as a boolean; the binder also takes the quoted words
        return bool("streaming", true, "on or off: show answers while they are written (send, then edit)");
    }

    /** {@code receipts: reactions | notices | off} of a platform channel (docs/behaviour.md §16.5). */
    private static Leaf receipts() {
        return word("receipts", ChannelsConfig.DEFAULT_RECEIPTS.configName(),
                configNames(dev.laneway.core.channel.ReceiptMode.values(),
                        dev.laneway.core.channel.ReceiptMode::configName), List.of(),
                "how a message shows what became of it until its answer: reactions, notices or off");
    }

    private static Leaf streamingInterval(dev.laneway.core.channel.Streaming defaults) {
        return duration("streamingInterval", defaults.minEditInterval(),
                "the least time between two changes of one live answer (at least 200ms)");
    }

    private static Obj obj(String name, String about, KeySpec... keys) {
        return new Obj(name, List.of(keys), List.of(), about);
    }

    private static Obj obj(String name, String about, List<KeySpec> keys) {
        return new Obj(name, keys, List.of(), about);
    }

    private static Leaf leaf(String name, Type type, Object defaultValue, Number min, Number max, List<String> words,
                             String about) {
        return new Leaf(name, type, defaultValue, min, max, words, List.of(), about);
    }

    private static Leaf text(String name, String defaultValue, String about) {
        return leaf(name, Type.TEXT, defaultValue, null, null, List.of(), about);
    }

    private static Leaf secret(String name, String about) {
        return leaf(name, Type.SECRET, null, null, null, List.of(), about);
    }

    private static Leaf bool(String name, Boolean defaultValue, String about) {
        return leaf(name, Type.BOOL, defaultValue, null, null, List.of(), about);
    }

    private static Leaf integer(String name, Integer defaultValue, int min, int max, String about) {
        return leaf(name, Type.INT, defaultValue, min, max == MAX ? null : max, List.of(), about);
    }

    private static Leaf number(String name, Double defaultValue, Double min, Number max, String about) {
        return leaf(name, Type.NUMBER, defaultValue, min, max, List.of(), about);
    }

    private static Leaf duration(String name, Duration defaultValue, String about) {
        return leaf(name, Type.DURATION, defaultValue, null, null, List.of(), about);
    }

    private static Leaf word(String name, String defaultValue, List<String> words, List<String> aliases, String about) {
        return new Leaf(name, Type.WORD, defaultValue, null, null, words, aliases, about);
    }

    private static Leaf strings(String name, List<String> defaultValue, String about) {
        return leaf(name, Type.STRINGS, defaultValue, null, null, List.of(), about);
    }
}
