package dev.laneway.agents.openai;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.agents.tool.ToolRegistry;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.SessionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the OpenAI agent: the model/tool loop, on its own virtual thread.
 *
 * <p>Concurrency: the loop and every field marked "run thread" belong to the run's thread. Engine
 * threads call {@link #steer} (into the {@link SteerInbox}, which has its own lock) and
 * {@link #abort} (into the {@link RunGuard}, which has its own lock); neither blocks nor calls
 * back into the gateway, and this class holds no lock while it calls {@link RunEvents}.
 * {@code completion} is completed exactly once, by the run thread, as its last act.
 *
 * <p>Steering: steers are taken into the conversation before each model call; before each tool
 * call a pending steer makes the rest of the assistant message's calls "skipped"; after a final
 * answer the inbox closes only if it is empty, otherwise one more model call follows. A reply with
 * text reports the steers the model saw before writing it as answered; steers taken but not yet
 * answered by text are handed back as unseen if the run fails or aborts.
 */
final class OpenAiRun implements AgentRun {

    static final int MAX_TOOL_ROUNDS = 8;
    static final String SKIPPED = "Skipped due to queued user message.";
    static final String REJECTED_KEY_REPLY = "⚠️ The model provider rejected the API key.";

    private static final Logger log = LoggerFactory.getLogger(OpenAiRun.class);

    private final RunRequest request;
    private final RunEvents events;
    private final OpenAiSettings settings;
    private final SessionStore store;
    private final ConversationTurns turns;
    private final ConversationTurns.Turn turn;
    private final ChatClient client;
    private final ToolRegistry tools;
    private final ObjectMapper mapper;
    private final FileParts files;
    private final SteerInbox inbox = new SteerInbox();
    private final RunGuard guard = new RunGuard();
    private final CompletableFuture<RunOutcome> completion = new CompletableFuture<>();
    private final List<SteerMessage> inFlight = new ArrayList<>(); // run thread: steers sent, not yet answered by text
    private Conversation conversation;                             // run thread: null until history is loaded
    private boolean delivered;                                     // run thread: a model reply went out

    /** Begins the run's turn at once, so a {@code /new} from now on keeps this turn out of the new conversation. */
    OpenAiRun(RunRequest request, RunEvents events, OpenAiSettings settings, SessionStore store,
              ConversationTurns turns, ChatClient client, ToolRegistry tools, ObjectMapper mapper) {
        this(request, events, settings, store, turns, client, tools, mapper,
                new FileParts(dev.laneway.agents.files.FileReading.none(), settings, mapper));
    }

    OpenAiRun(RunRequest request, RunEvents events, OpenAiSettings settings, SessionStore store,
              ConversationTurns turns, ChatClient client, ToolRegistry tools, ObjectMapper mapper, FileParts files) {
        this.files = files;
        this.request = request;
        this.events = events;
        this.settings = settings;
        this.store = store;
        this.turns = turns;
        this.turn = turns.begin(request.session());
        this.client = client;
        this.tools = tools;
        this.mapper = mapper;
    }

    /**
     * The run thread's body. Never throws; completes {@link #completion()} once. Saving the history
     * comes after the outcome is decided and cannot change it: an answer the user already got is
     * never followed by a failure notice because the store failed.
     */
    void execute() {
        RunOutcome outcome = RunOutcome.Failed.of("internal error", false);
        try {
            outcome = answer();
            saveHistory(outcome);
        } finally {
            turns.close(turn);
            completion.complete(outcome);
        }
    }

    private RunOutcome answer() {
        try {
            try {
                return converse();
            } catch (CallFailure failure) {
                return outcomeOf(failure);
            }
        } catch (RuntimeException | Error e) {
            log.error("openai agent '{}': run {} crashed", settings.name(), request.runId(), e);
            return new RunOutcome.Failed("internal error", false, unseen());
        }
    }

    private RunOutcome converse() throws CallFailure {
        checkAborted();
        List<HistoryEntry> history = settings.maxHistoryMessages() == 0 ? List.of()
                : store.history(request.session(), settings.maxHistoryMessages());
        var content = files.content(request.prompt(), request.files(), request.session(), events);
        checkAborted();
        conversation = Conversation.start(mapper, settings.systemPrompt(), history, request.prompt(), content);
        int toolRounds = 0;
        while (true) {
            for (SteerMessage steer : inbox.take()) {
                conversation.addUser(steer.text(), files.content(steer.text(),
                        steer.files() == null ? List.of() : List.of(steer.files()), request.session(), events));
                inFlight.add(steer);
            }
            boolean toolsAllowed = toolRounds < MAX_TOOL_ROUNDS;
            AssistantMessage answer = client.complete(
                    RequestBodies.chat(mapper, settings, conversation.messages(), tools, toolsAllowed),
                    request.claim(), guard, this::emitDelta, this::emitRetry);
            checkAborted();
            conversation.addAssistant(answer);
            if (answer.hasText()) {
                // this text answers the steers the model saw before writing it
                emitReply(answer.content(), List.copyOf(inFlight));
                inFlight.clear();
                delivered = true;
            }
            if (!answer.toolCalls().isEmpty()) {
                if (!toolsAllowed) {
                    throw CallFailure.failed("too many tool calls", false);
                }
                toolRounds++;
                runTools(answer.toolCalls());
            } else if (inbox.closeIfEmpty()) {
                return RunOutcome.Completed.clean();
            }
        }
    }

    /** Runs the calls one after another; once a steer is pending, the rest are skipped. */
    private void runTools(List<ToolCall> calls) throws CallFailure {
        boolean skipping = false;
        for (ToolCall call : calls) {
            skipping = skipping || inbox.hasPending();
            if (skipping) {
                conversation.addToolResult(call.id(), SKIPPED);
                emitToolStep(call.name(), "skipped");
                continue;
            }
            checkAborted();
            emitToolStep(call.name(), "started");
            ToolInvoker.Result result = ToolInvoker.invoke(tools, call, mapper);
            conversation.addToolResult(call.id(), result.text());
            emitToolStep(call.name(), result.ok() ? "done" : "failed");
        }
    }

    private RunOutcome outcomeOf(CallFailure failure) {
        if (guard.aborted() || failure.kind() == CallFailure.Kind.ABORTED) {
            return new RunOutcome.Aborted(unseen());
        }
        if (failure.kind() == CallFailure.Kind.REJECTED) {
            emitReply(REJECTED_KEY_REPLY);
            return new RunOutcome.Reported(failure.reason(), unseen());
        }
        log.info("openai agent '{}': run {} failed: {}", settings.name(), request.runId(), failure.reason());
        if (failure.kind() == CallFailure.Kind.UNAVAILABLE && !delivered) {
            // nothing reached the user: another agent (a fallback) may answer the turn instead
            return RunOutcome.Failed.unavailable(failure.reason(), unseen());
        }
        return new RunOutcome.Failed(failure.reason(), failure.retryable(), unseen());
    }

    /** Steers the model never answered, oldest first; closes the inbox. */
    private List<SteerMessage> unseen() {
        List<SteerMessage> all = new ArrayList<>(inFlight);
        all.addAll(inbox.close());
        inFlight.clear();
        return all;
    }

    /**
     * A completed run stores its turn; a failed one only if the user already saw part of it; neither
     * if the conversation was reset ({@code /new}) after the run began.
     */
    private void saveHistory(RunOutcome outcome) {
        if (conversation == null || !(outcome instanceof RunOutcome.Completed || delivered)) {
            return;
        }
        try {
            List<HistoryEntry> entries = conversation.committedEntries();
            if (!turns.save(turn, entries) && !entries.isEmpty()) {
                log.info("openai agent '{}': run {} began before the conversation of session {} was reset; its"
                        + " turn stays out of the new history", settings.name(), request.runId(), request.session());
            }
        } catch (RuntimeException e) {
            log.error("openai agent '{}': run {} ended ({}), but its turn could not be saved to the history of"
                    + " session {}: {}", settings.name(), request.runId(), outcome.getClass().getSimpleName(),
                    request.session(), e.toString());
        }
    }

    private void checkAborted() throws CallFailure {
        if (guard.aborted()) {
            throw CallFailure.aborted();
        }
    }

    private void emitDelta(String text) {
        if (!guard.aborted()) {
            events.delta(text);
        }
    }

    private void emitReply(String text) {
        emitReply(text, List.of());
    }

    private void emitReply(String text, List<SteerMessage> answeredSteers) {
        if (!guard.aborted()) {
            events.reply(text, answeredSteers);
        }
    }

    /** Counted by operators ({@code laneway_agent_retries_total}); the reason holds no secret. */
    private void emitRetry(int retry, String reason) {
        if (!guard.aborted()) {
            events.retrying("retry " + retry + " of " + settings.maxRetries() + " after " + reason);
        }
    }

    private void emitToolStep(String tool, String status) {
        if (!guard.aborted()) {
            events.toolStep(tool, status);
        }
    }

    @Override
    public CompletionStage<RunOutcome> completion() {
        return completion;
    }

    @Override
    public SteerResult steer(List<SteerMessage> messages) {
        return guard.aborted() ? SteerResult.REFUSED : inbox.offer(messages);
    }

    @Override
    public void abort() {
        guard.abort();
    }
}
