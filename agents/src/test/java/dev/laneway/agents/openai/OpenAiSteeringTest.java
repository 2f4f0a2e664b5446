package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.after;
import static dev.laneway.agents.openai.Responses.json;
import static dev.laneway.agents.openai.Responses.sse;
import static dev.laneway.agents.openai.Responses.status;
import static dev.laneway.agents.openai.Responses.streamedText;
import static dev.laneway.agents.openai.Responses.text;
import static dev.laneway.agents.openai.Responses.toolCalls;
import static dev.laneway.agents.testing.Runs.outcome;
import static dev.laneway.agents.testing.Runs.request;
import static dev.laneway.agents.testing.Runs.steer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.agents.openai.Responses.Call;
import dev.laneway.agents.tool.CurrentTimeTool;
import dev.laneway.agents.tool.Tool;
import dev.laneway.agents.tool.ToolRegistry;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.store.HistoryEntry;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiSteeringTest {

    private final Harness h = new Harness();

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void steerDuringAToolCall_skipsTheUnstartedCallsAndReachesTheNextModelCall() throws Exception {
        CompletableFuture<Void> toolStarted = new CompletableFuture<>();
        CompletableFuture<Void> releaseTool = new CompletableFuture<>();
        ToolRegistry catalog = ToolRegistry.of(List.of(
                new BlockingTool(toolStarted, releaseTool), new CurrentTimeTool(InstantSource.fixed(Harness.NOW))));
        h.fake.then(json(toolCalls(new Call("call_1", "slow", "{}"), new Call("call_2", "current_time", "{}"),
                        new Call("call_3", "current_time", "{}"))))
                .then(streamedText("Stopping."));
        AgentRun run = h.agent(h.settings(), catalog)
                .start(request("check things"), h.events);

        toolStarted.get(10, TimeUnit.SECONDS);
        List<SteerMessage> steered = steer("actually, stop", "and say hi");
        assertEquals(SteerResult.ACCEPTED, run.steer(steered));
        releaseTool.complete(null);

        assertEquals(RunOutcome.Completed.clean(), outcome(run));
        JsonNode messages = h.fake.request(1).messages();
        assertEquals(OpenAiToolLoopTest.toolMessage("call_1", "slow result"), messages.get(3));
        assertEquals(OpenAiToolLoopTest.toolMessage("call_2", OpenAiRun.SKIPPED), messages.get(4));
        assertEquals(OpenAiToolLoopTest.toolMessage("call_3", OpenAiRun.SKIPPED), messages.get(5));
        assertEquals(user("actually, stop"), messages.get(6));
        assertEquals(user("and say hi"), messages.get(7));
        assertEquals(8, messages.size());
        assertEquals(List.of("slow:started", "slow:done", "current_time:skipped", "current_time:skipped"),
                h.events.toolSteps());
        assertEquals(List.of("actually, stop|and say hi"), h.events.answeredSteers());
    }

    @Test
    void steerWhileTheFinalAnswerStreams_deliversThatAnswerThenMakesOneMoreCallWithTheSteer() {
        CompletableFuture<Void> resume = new CompletableFuture<>();
        h.fake.then(sse().data(text("Hel")).await(resume).data(text("lo")).data(Responses.finish("stop")).done())
                .then(streamedText("Also hi."));
        AgentRun run = h.start("greet me");

        h.events.awaitDeltas(1);
        assertEquals(SteerResult.ACCEPTED, run.steer(steer("and my friend")));
        resume.complete(null);

        assertEquals(RunOutcome.Completed.clean(), outcome(run));
        assertEquals(List.of("Hello", "Also hi."), h.events.replies());
        assertEquals(List.of("", "and my friend"), h.events.answeredSteers(),
                "the first answer was written before the steer; the second one answers it");
        JsonNode messages = h.fake.request(1).messages();
        assertEquals("Hello", messages.get(2).get("content").asText());
        assertEquals(user("and my friend"), messages.get(3));
        assertEquals(List.of(new HistoryEntry("user", "greet me"), new HistoryEntry("assistant", "Hello"),
                        new HistoryEntry("user", "and my friend"), new HistoryEntry("assistant", "Also hi.")),
                h.store.history(SessionKey.of("console:local"), 10));
    }

    @Test
    void severalSteersBeforeOneBoundary_arriveTogetherInArrivalOrder() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        h.fake.then(after(release, streamedText("First.")))
                .then(streamedText("Second."));
        AgentRun run = h.start("go");

        h.fake.request(0);
        run.steer(steer("one"));
        run.steer(steer("two", "three"));
        release.complete(null);

        outcome(run);
        JsonNode messages = h.fake.request(1).messages();
        assertEquals(List.of(user("one"), user("two"), user("three")),
                List.of(messages.get(3), messages.get(4), messages.get(5)));
    }

    @Test
    void steerTheModelNeverAnswered_isReturnedAsUnseenWhenTheRunFails() {
        CompletableFuture<Void> resume = new CompletableFuture<>();
        h.fake.then(sse().data(text("Partial answer.")).await(resume).data(Responses.finish("stop")).done())
                .then(status(400));
        AgentRun run = h.start("question");

        h.events.awaitDeltas(1);
        List<SteerMessage> steered = steer("follow-up");
        run.steer(steered);
        resume.complete(null);

        assertEquals(new RunOutcome.Failed("HTTP 400", false, steered), outcome(run));
        assertEquals(List.of("Partial answer."), h.events.replies());
        assertEquals(List.of(new HistoryEntry("user", "question"), new HistoryEntry("assistant", "Partial answer.")),
                h.store.history(SessionKey.of("console:local"), 10));
    }

    @Test
    void steerTheModelSawButAnsweredOnlyWithToolCalls_isReturnedAsUnseenWhenTheRunFails() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        h.fake.then(after(release, json(toolCalls(new Call("call_1", "current_time", "{}")))))
                .then(json(toolCalls(new Call("call_2", "current_time", "{}"))))
                .then(status(400));
        AgentRun run = h.agent(h.settings().withTools(List.of("current_time"))).start(request("go"), h.events);

        h.fake.request(0);
        List<SteerMessage> steered = steer("more");
        run.steer(steered);
        release.complete(null);

        assertEquals(new RunOutcome.Failed("HTTP 400", false, steered), outcome(run),
                "the model saw it, but no text ever answered it: it runs again as a followup");
        assertEquals(List.of(), h.events.replies());
    }

    @Test
    void steerQueuedBeforeTheFirstAnswer_isReturnedAsUnseenWhenTheRunIsAborted() {
        CompletableFuture<Void> never = new CompletableFuture<>();
        h.fake.then(after(never, streamedText("too late")));
        AgentRun run = h.start("question");

        h.fake.request(0);
        List<SteerMessage> steered = steer("more");
        run.steer(steered);
        run.abort();

        assertEquals(new RunOutcome.Aborted(steered), outcome(run));
        assertEquals(SteerResult.REFUSED, run.steer(steer("after abort")));
    }

    private static JsonNode user(String text) {
        return FakeOpenAi.JSON.createObjectNode().put("role", "user").put("content", text);
    }

    /** A tool that reports it started, then waits for the test to release it. */
    private record BlockingTool(CompletableFuture<Void> started, CompletableFuture<Void> release) implements Tool {
        @Override
        public String name() {
            return "slow";
        }

        @Override
        public String description() {
            return "takes a while";
        }

        @Override
        public JsonNode parametersSchema() {
            return FakeOpenAi.JSON.createObjectNode().put("type", "object");
        }

        @Override
        public String call(JsonNode arguments) throws Exception {
            started.complete(null);
            release.get(10, TimeUnit.SECONDS);
            return "slow result";
        }
    }
}
