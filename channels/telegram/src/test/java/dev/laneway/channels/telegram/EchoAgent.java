package dev.laneway.channels.telegram;

import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/** Answers every turn at once, on a virtual thread, with {@code reply.apply(prompt)}; cannot steer. */
final class EchoAgent implements Agent {

    private final UnaryOperator<String> reply;
    private final List<String> prompts = new CopyOnWriteArrayList<>();

    EchoAgent() {
        this(prompt -> "echo: " + prompt);
    }

    EchoAgent(UnaryOperator<String> reply) {
        this.reply = reply;
    }

    @Override
    public String name() {
        return "echo";
    }

    @Override
    public AgentRun start(RunRequest request, RunEvents events) {
        prompts.add(request.prompt());
        CompletableFuture<RunOutcome> done = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            events.reply(reply.apply(request.prompt()));
            done.complete(new RunOutcome.Completed(List.of()));
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
                done.complete(new RunOutcome.Aborted(List.of()));
            }
        };
    }

    List<String> prompts() {
        return List.copyOf(prompts);
    }
}
