package dev.laneway.bench;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.ChatPacer;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.channel.TextChunker;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Streaming answers in virtual time (docs/behaviour.md §16, README "Streaming"): a fake model writes
 * a 400-token answer, one token every 50 ms, into the real engine and outbox; a channel with each
 * platform's limit, pacing and default edit interval records every platform call at its virtual
 * time. Per platform it reports the time to the first visible text and to the final text, the calls
 * per answer, the most calls in any window the platform limits, and whether the final messages
 * equal the non-streamed answer; the baseline is the same answer with streaming off (first text =
 * final text = the send after the model's last token). Single-threaded: every timer, agent token
 * and outbox drain runs on the simulation's loop, so one run takes milliseconds of real time.
 */
public final class StreamingSimulation {

    static final int TOKENS = 400;
    static final long TOKEN_MS = 50;

    /** A platform as the simulation models it: its limit per message, pacing, edit interval and the limit checked. */
    record Platform(String name, int maxText, ChatPacer.Limits pacing, boolean windowed, Duration editInterval,
                    int windowMax, Duration window) {
    }

    static final List<Platform> PLATFORMS = List.of(
            // Telegram private chat: ~1 message/s per chat (a burst of 3 tolerated)
            new Platform("telegram", 4096, ChatPacer.Limits.perChat(Duration.ofSeconds(1), 3), false,
                    Duration.ofSeconds(1), 60, Duration.ofMinutes(1)),
            // Telegram group: also at most 20 messages (and edits) a minute; the channel streams a group every 3 s
            new Platform("telegram group", 4096, new ChatPacer.Limits(Duration.ofSeconds(1), 3, 20,
                    Duration.ofMinutes(1)), true, Duration.ofSeconds(3), 20, Duration.ofMinutes(1)),
            // Discord: the channel does not pace; JDA holds each call until its bucket (5 per 5 s per channel) has room
            new Platform("discord", 2000, new ChatPacer.Limits(Duration.ofMillis(1), 1, 5, Duration.ofSeconds(5)),
                    true, Duration.ofSeconds(1), 5, Duration.ofSeconds(5)),
            // Slack: chat.postMessage ~1/s per channel; chat.update Tier 3, ~50 a minute per workspace
            new Platform("slack", 4000, ChatPacer.Limits.perChat(Duration.ofSeconds(1), 3), false,
                    Duration.ofSeconds(2), 50, Duration.ofMinutes(1)));

    /** What one answer cost on one platform. */
    record Outcome(String platform, boolean streamed, long firstVisibleMs, long finalMs, int posts, int edits,
                   int mostInWindow, int windowMax, Duration window, boolean finalEqualsPlain) {
    }

    public static void main(String[] args) {
        List<Outcome> outcomes = runAll();
        System.out.println(table(outcomes));
    }

    static List<Outcome> runAll() {
        List<Outcome> outcomes = new ArrayList<>();
        for (Platform platform : PLATFORMS) {
            outcomes.add(run(platform, false));
            outcomes.add(run(platform, true));
        }
        return outcomes;
    }

    /** The README's table: one row per platform and mode, the streamed row with its ratio to the plain one. */
    static String table(List<Outcome> outcomes) {
        StringBuilder out = new StringBuilder("| platform | mode | first text | final text | messages | edits |"
                + " most calls in a window (limit) | final = plain |\n|---|---|---|---|---|---|---|---|\n");
        for (Outcome o : outcomes) {
            out.append("| ").append(o.platform()).append(" | ").append(o.streamed() ? "streamed" : "plain (baseline)")
                    .append(" | ").append(seconds(o.firstVisibleMs())).append(" | ").append(seconds(o.finalMs()))
                    .append(" | ").append(o.posts()).append(" | ").append(o.edits()).append(" | ")
                    .append(o.mostInWindow()).append(" per ").append(o.window().toSeconds()).append(" s (")
                    .append(o.windowMax()).append(") | ").append(o.finalEqualsPlain() ? "yes" : "NO").append(" |\n");
        }
        return out.toString();
    }

    private static String seconds(long millis) {
        return String.format(java.util.Locale.ROOT, "%.2f s", millis / 1000.0);
    }

    /** One answer on {@code platform}, streamed or not, from the message's arrival at virtual time 0. */
    static Outcome run(Platform platform, boolean streamed) {
        VirtualTime time = new VirtualTime();
        Loop loop = new Loop(time);
        SimChannel channel = new SimChannel(platform, streamed ? Streaming.every(platform.editInterval())
                : Streaming.OFF, time);
        String answer = answer();
        Gateway gateway = Gateway.builder() // the channel's name is the platform's, so each row is its own gateway
                .settings(GatewaySettings.builder().build())
                .clock(time)
                .scheduler(loop)
                .executor(loop)
                .agent(new TokenAgent(answer, loop))
                .channel(channel)
                .build();
        gateway.start();
        loop.drain();
        gateway.accept(InboundMessage.builder(platform.name()).chatId("chat").senderId("user").senderName("User")
                .text("write a long answer").platformMessageId("m1").receivedAt(time.instant()).build());
        loop.runAll();
        List<String> plain = TextChunker.split(answer, platform.maxText());
        long first = channel.calls.isEmpty() ? -1 : channel.calls.getFirst().atMs();
        long last = channel.calls.isEmpty() ? -1 : channel.calls.getLast().atMs();
        int posts = (int) channel.calls.stream().filter(c -> !c.edit()).count();
        int edits = channel.calls.size() - posts;
        return new Outcome(platform.name(), streamed, first, last, posts, edits, channel.mostInWindow(platform.window()),
                platform.windowMax(), platform.window(), plain.equals(channel.screen()));
    }

    /** 400 tokens of a few characters each, with paragraphs and one code block (about 2,600 characters). */
    static String answer() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < TOKENS; i++) {
            text.append(token(i));
        }
        return text.toString();
    }

    private static String token(int i) {
        if (i == 200) {
            return "\n\n```\ncode ";
        }
        if (i == 240) {
            return "\n```\n\n";
        }
        return i % 40 == 39 ? "lanes.\n\n" : "lanes ";
    }

    /** The simulation's scheduler and executor: tasks run on its one loop, timers in virtual time. */
    private static final class Loop implements Scheduler, Executor {
        private final VirtualTime time;
        private final ArrayDeque<Runnable> ready = new ArrayDeque<>();

        Loop(VirtualTime time) {
            this.time = time;
        }

        @Override
        public void execute(Runnable task) {
            ready.add(task);
        }

        @Override
        public Cancellable schedule(Duration delay, Runnable task) {
            boolean[] cancelled = {false};
            time.at(time.now() + Math.max(0, delay.toMillis()), () -> {
                if (!cancelled[0]) {
                    task.run();
                }
            });
            return () -> cancelled[0] = true;
        }

        void drain() {
            Runnable next;
            while ((next = ready.poll()) != null) {
                next.run();
            }
        }

        void runAll() {
            drain();
            while (time.hasNext()) {
                time.step();
                drain();
            }
        }
    }

    /** A model that writes {@code answer}'s tokens one every 50 ms, then replies with the whole text. */
    private record TokenAgent(String answer, Loop loop) implements Agent {
        @Override
        public String name() {
            return "tokens";
        }

        @Override
        public AgentRun start(RunRequest request, RunEvents events) {
            CompletableFuture<RunOutcome> done = new CompletableFuture<>();
            for (int i = 0; i < TOKENS; i++) {
                String token = token(i);
                loop.schedule(Duration.ofMillis(TOKEN_MS * (i + 1)), () -> events.delta(token));
            }
            loop.schedule(Duration.ofMillis(TOKEN_MS * TOKENS), () -> {
                events.reply(answer);
                done.complete(RunOutcome.Completed.clean());
            });
            return new AgentRun() {
                @Override
                public CompletionStage<RunOutcome> completion() {
                    return done;
                }

                @Override
                public SteerResult steer(List<SteerMessage> messages) {
                    return SteerResult.REFUSED;
                }

                @Override
                public void abort() {
                }
            };
        }
    }

    /** One platform call at its virtual time. */
    private record Call(long atMs, boolean edit) {
    }

    /** A channel with a platform's limit and pacing that records every call and what each message shows. */
    private static final class SimChannel implements ChannelAdapter {
        private final Platform platform;
        private final Streaming streaming;
        private final VirtualTime time;
        private final ChatPacer pacer;
        private final List<Call> calls = new ArrayList<>();
        private final Map<String, String> shown = new LinkedHashMap<>();
        private int ids;

        SimChannel(Platform platform, Streaming streaming, VirtualTime time) {
            this.platform = platform;
            this.streaming = streaming;
            this.time = time;
            this.pacer = new ChatPacer(platform.pacing());
        }

        @Override
        public String name() {
            return platform.name();
        }

        @Override
        public ChannelCapabilities capabilities() {
            return new ChannelCapabilities(platform.maxText(), false, null, false);
        }

        @Override
        public void start(InboundSink sink) {
        }

        @Override
        public void send(Route route, String text) {
            post(route, text);
        }

        @Override
        public String post(Route route, String text) {
            check(text);
            String id = "m" + (++ids);
            shown.put(id, text);
            calls.add(new Call(time.now(), false));
            return id;
        }

        @Override
        public void edit(Route route, String messageId, String text) {
            check(text);
            shown.put(messageId, text);
            calls.add(new Call(time.now(), true));
        }

        private void check(String text) {
            if (text.length() > platform.maxText()) {
                throw new IllegalStateException(platform.name() + ": a message of " + text.length() + " characters");
            }
        }

        @Override
        public Duration pace(Route route) {
            return pacer.reserve(route.chatId(), platform.windowed(), time.instant());
        }

        @Override
        public Streaming streaming(Route route) {
            return streaming;
        }

        @Override
        public void stop() {
        }

        List<String> screen() {
            return List.copyOf(shown.values());
        }

        /** The most calls in any window of {@code window} (the platform's limit is checked against it). */
        int mostInWindow(Duration window) {
            int most = 0;
            for (int i = 0, j = 0; i < calls.size(); i++) {
                while (calls.get(i).atMs() - calls.get(j).atMs() >= window.toMillis()) {
                    j++;
                }
                most = Math.max(most, i - j + 1);
            }
            return most;
        }
    }
}
