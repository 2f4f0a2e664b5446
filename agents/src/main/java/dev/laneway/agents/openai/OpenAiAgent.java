package dev.laneway.agents.openai;

import dev.laneway.agents.files.FileReading;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.agents.pool.ProviderPools;
import dev.laneway.agents.tool.ToolRegistry;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.time.Scheduler;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * {@code provider: openai}: any server speaking the OpenAI Chat Completions API (OpenAI,
 * OpenRouter, Ollama, vLLM, llama.cpp, LM Studio), over the JDK {@link HttpClient} and Jackson.
 * Each run is a model/tool loop on its own virtual thread ({@link OpenAiRun}); the conversation
 * history of a session lives in the {@link SessionStore}. Every model call goes through the provider
 * pool of its endpoint (docs/behaviour.md §14). Thread-safe: all fields are immutable or
 * thread-safe, and runs share nothing else.
 */
public final class OpenAiAgent implements Agent {

    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(30);

    private final OpenAiSettings settings;
    private final SessionStore store;
    private final ToolRegistry tools;
    private final ObjectMapper mapper = new ObjectMapper();
    private final ChatClient client;
    private final ConversationTurns turns;
    private volatile FileParts files;

    /**
     * With the built-in tools that {@code settings.tools()} names ({@code current_time} reads
     * {@code clock}), calling through a pool of its own.
     */
    public OpenAiAgent(OpenAiSettings settings, SessionStore store, Scheduler scheduler, InstantSource clock) {
        this(settings, store, scheduler, clock, ProviderPools.unnamed(clock, scheduler));
    }

    /** With the built-in tools, calling through the pool of its endpoint in {@code pools} (docs/behaviour.md §14). */
    public OpenAiAgent(OpenAiSettings settings, SessionStore store, Scheduler scheduler, InstantSource clock,
                       ProviderPools pools) {
        this(settings, store, scheduler, clock, ToolRegistry.builtIns(clock).select(settings.tools()), pools);
    }

    /** With exactly {@code tools}, calling through a pool of its own. */
    public OpenAiAgent(OpenAiSettings settings, SessionStore store, Scheduler scheduler, InstantSource clock,
                       ToolRegistry tools) {
        this(settings, store, scheduler, clock, tools, ProviderPools.unnamed(clock, scheduler));
    }

    /**
     * With exactly {@code tools}, whatever {@code settings.tools()} says (tests bring their own).
     *
     * @param scheduler times retries' backoff and each exchange's idle timeout
     * @param clock     "now" for a {@code Retry-After} given as an HTTP date
     * @param pools     where its endpoint's pool is (shared with every agent calling the same endpoint)
     */
    public OpenAiAgent(OpenAiSettings settings, SessionStore store, Scheduler scheduler, InstantSource clock,
                       ToolRegistry tools, ProviderPools pools) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.store = Objects.requireNonNull(store, "store");
        Objects.requireNonNull(scheduler, "scheduler");
        this.tools = Objects.requireNonNull(tools, "tools");
        this.turns = new ConversationTurns(store);
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.timeout().compareTo(MAX_CONNECT_TIMEOUT) < 0
                        ? settings.timeout() : MAX_CONNECT_TIMEOUT)
                .build();
        this.client = new ChatClient(settings, http, scheduler, Objects.requireNonNull(clock, "clock"), mapper,
                pools.poolFor(settings), pools.observer());
        this.files = new FileParts(FileReading.none(), settings, mapper);
    }

    /**
     * Reads attachments with {@code reading} (docs/behaviour.md §15.2); set while wiring, before the first
     * run. Until then every file is "not fetched here".
     */
    public OpenAiAgent readingFiles(FileReading reading) {
        this.files = new FileParts(Objects.requireNonNull(reading, "reading"), settings, mapper);
        return this;
    }

    @Override
    public String name() {
        return settings.name();
    }

    @Override
    public Duration runTimeout() {
        return settings.runTimeout();
    }

    @Override
    public AgentRun start(RunRequest request, RunEvents events) {
        OpenAiRun run = new OpenAiRun(request, events, settings, store, turns, client, tools, mapper, files);
        Thread.ofVirtual().name("openai-" + settings.name() + "-" + request.runId()).start(run::execute);
        return run;
    }

    /** {@code /new}: clears the history; a turn already running will not add itself to the new conversation. */
    @Override
    public void resetConversation(SessionKey session) {
        turns.reset(session);
    }
}
