package dev.laneway.core.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scheduled jobs through the real engine (docs/behaviour.md §12): a fire's prompt is journaled,
 * run by the agent and its answer posted in the target chat once; {@code ifBusy} against a real
 * busy session; a target chat that is gone.
 */
class ScheduledJobsEndToEndTest {

    private static final Instant T0 = Instant.parse("2026-03-02T00:00:00Z");

    private final InMemoryJournal journal = new InMemoryJournal();
    private final GatewayHarness h = new GatewayHarness(s -> s, CommandHandler.NONE, journal, new ManualTime(T0));

    private ScheduledJobs runner(ScheduledJob... jobs) {
        return new ScheduledJobs(List.of(jobs), h.store, JobSubmitter.of(h.gateway), h.time, h.time, Runnable::run,
                ScheduledJobs.Listener.NONE);
    }

    private static ScheduledJob job(String id, String chat, IfBusy ifBusy) {
        return new ScheduledJob(id, new Every(Duration.ofHours(1)), null, new JobTarget("test", chat, null),
                "Summarise what happened overnight.", null, ifBusy, Duration.ZERO);
    }

    @Test
    void aFiredJobsAnswerIsPostedInItsChatOnce_asAPostNotAReply() {
        ScheduledJobs jobs = runner(job("morning", "group", IfBusy.WAIT));
        jobs.start();
        h.advance(Duration.ofHours(1));

        assertEquals(List.of("Summarise what happened overnight."), h.agent.prompts());
        var request = h.agent.run(0).request();
        assertEquals("schedule:morning", request.senderId());
        assertTrue(request.group(), "posted in a chat, not a DM");
        assertEquals("test:group:group", request.session().value());
        assertEquals(1, journal.pending().size(), "journaled before it ran");

        h.agent.run(0).complete("Nothing happened.");
        assertEquals(1, h.channel.sent().size());
        FakeChannel.Sent sent = h.channel.sent().get(0);
        assertEquals("Nothing happened.", sent.text());
        assertEquals("group", sent.route().chatId());
        assertNull(sent.route().replyToMessageId(), "no platform message to reply to");
        assertEquals(List.of(), journal.pending(), "answered once, recorded");

        h.advance(Duration.ofMinutes(59));
        assertEquals(1, h.agent.runs().size(), "nothing more until the next fire");
        h.advance(Duration.ofMinutes(1));
        assertEquals(2, h.agent.runs().size());
    }

    @Test
    void ifBusySkip_skipsWhileAUsersRunIsActiveInTheChat_butIfBusyWait_queuesBehindIt() {
        ScheduledJobs jobs = runner(job("skipper", "group", IfBusy.SKIP), job("waiter", "group", IfBusy.WAIT));
        jobs.start();
        h.advance(Duration.ofMinutes(59));
        h.group("ada", "a long question");
        assertEquals(1, h.agent.runs().size());

        h.advance(Duration.ofMinutes(1));
        assertEquals(1, h.agent.runs().size(), "the waiter's prompt waits behind the user's run");
        assertEquals(1, jobs.status().get(0).skippedBusy());
        assertEquals(0, jobs.status().get(1).skippedBusy());

        h.agent.run(0).complete("an answer");
        h.advance(Duration.ofSeconds(1));
        assertEquals(List.of("a long question", "Summarise what happened overnight."), h.agent.prompts(),
                "the waiter ran as its own turn after the user's run; the skipper did not run");
        assertEquals("schedule:waiter", h.agent.run(1).request().senderId());
    }

    @Test
    void aJobWhoseChatIsGone_logsOneErrorPerFire_andTheNextFireStillHappens() {
        ScheduledJobs jobs = runner(job("ghost", "deleted-chat", IfBusy.WAIT));
        jobs.start();
        h.channel.failSends(true); // the platform refuses every send: the chat no longer exists
        try (LogCapture log = LogCapture.all()) {
            h.advance(Duration.ofHours(1));
            h.agent.run(0).complete("summary");
            assertEquals(1, log.messages(Level.ERROR).size(), String.valueOf(log.lines()));

            h.advance(Duration.ofHours(1));
            assertEquals(2, h.agent.runs().size(), "the next fire still happens");
            h.agent.run(1).complete("summary");
            assertEquals(2, log.messages(Level.ERROR).size(), String.valueOf(log.lines()));
            assertTrue(log.messages(Level.ERROR).stream().allMatch(line -> line.contains("deleted-chat")));
        }
        assertFalse(h.gateway.shuttingDown());
        assertEquals(List.of(), h.channel.sent());
    }
}
