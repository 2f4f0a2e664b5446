package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Disposition;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A shutdown whose grace period ends mid-stream (docs/behaviour.md §16): a reply the agent already
 * produced is delivered whole and its message answered once, even when its final update still waits
 * on the chat's pacing; a reply cut before it was produced is marked and its message stays pending.
 */
class LiveAnswerShutdownTest {

    private final InMemoryJournal journal = new InMemoryJournal();

    private GatewayHarness streaming() {
        GatewayHarness h = new GatewayHarness(s -> s, CommandHandler.NONE, journal, new ManualTime());
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1)));
        return h;
    }

    /** Shuts down with no grace: the run is aborted for the shutdown at once. */
    private static CompletableFuture<Boolean> shutdownInBackground(GatewayHarness h) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return h.gateway.shutdown(Duration.ZERO);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aReplyProducedBeforeTheShutdown_whoseFinalEditWaitsOnPacing_isShownWhole_andAnsweredOnce()
            throws Exception {
        GatewayHarness h = streaming();
        String id = h.dm("weather?");
        var run = h.agent.run(0);
        run.delta("Paris is");
        assertEquals(List.of("Paris is"), h.channel.screen());
        h.channel.pacing(route -> Duration.ofSeconds(3));
        run.reply("Paris is 12°C and cloudy."); // the agent is still at work after its reply
        assertEquals(List.of("Paris is"), h.channel.screen(), "the final edit waits on the chat's pacing");

        CompletableFuture<Boolean> stopped = shutdownInBackground(h);
        Await.until("the shutdown to abort the run", run::abortRequested);
        run.finishAborted();
        h.channel.pacing(route -> Duration.ZERO);
        h.advance(Duration.ofSeconds(3));
        stopped.get(10, TimeUnit.SECONDS); // false: the run was aborted

        assertEquals(List.of("Paris is 12°C and cloudy."), h.channel.screen(), "the whole reply, no mark");
        assertEquals(Disposition.RAN, h.dispositions.of(id));
        assertEquals(List.of(), journal.pending(), "answered, once");
    }

    @Test
    void aReplyProducedBeforeTheShutdown_whoseFinalEditWasRateLimited_goesWholeAfterThePause() throws Exception {
        GatewayHarness h = streaming();
        String id = h.dm("weather?");
        var run = h.agent.run(0);
        run.delta("Paris is");
        h.channel.failNextEdits(SendFailure.rateLimited(Duration.ofSeconds(5), "HTTP 429"));
        run.reply("Paris is 12°C and cloudy.");
        assertEquals(List.of("Paris is"), h.channel.screen(), "the final edit was rate limited; the chat waits");

        CompletableFuture<Boolean> stopped = shutdownInBackground(h);
        Await.until("the shutdown to abort the run", run::abortRequested);
        run.finishAborted();
        h.advance(Duration.ofSeconds(5));
        stopped.get(10, TimeUnit.SECONDS); // false: the run was aborted

        assertEquals(List.of("Paris is", "12°C and cloudy."), h.channel.screen(), "the rest as a new message");
        assertEquals(Disposition.RAN, h.dispositions.of(id));
        assertEquals(List.of(), journal.pending(), "answered, once");
    }

    @Test
    void aReplyCutBeforeItWasProduced_isMarkedInterrupted_andItsMessageStaysPending() throws Exception {
        GatewayHarness h = streaming();
        h.dm("weather?");
        var run = h.agent.run(0);
        run.delta("Paris is");
        h.channel.pacing(route -> Duration.ofSeconds(3));
        run.delta(" 12°C");

        CompletableFuture<Boolean> stopped = shutdownInBackground(h);
        Await.until("the shutdown to abort the run", run::abortRequested);
        run.finishAborted();
        h.channel.pacing(route -> Duration.ZERO);
        h.advance(Duration.ofSeconds(3));
        stopped.get(10, TimeUnit.SECONDS); // false: the run was aborted

        assertEquals(List.of("Paris is 12°C\n\n" + LiveAnswer.INTERRUPTED), h.channel.screen());
        assertEquals(1, journal.pending().size(), "not answered: it runs again after the restart");
    }
}
