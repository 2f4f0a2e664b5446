package dev.laneway.agents.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Scripted answers and chunk builders for {@link FakeOpenAi}. */
final class Responses {

    private Responses() {
    }

    /** A tool call in a non-streamed message. */
    record Call(String id, String name, String arguments) {
    }

    static FakeOpenAi.Response json(String body) {
        return (exchange, fake) -> FakeOpenAi.send(exchange, 200, "application/json", body);
    }

    /** A status with an error body; {@code headers} are name, value pairs. */
    static FakeOpenAi.Response status(int code, String... headers) {
        return (exchange, fake) -> {
            for (int i = 0; i + 1 < headers.length; i += 2) {
                exchange.getResponseHeaders().set(headers[i], headers[i + 1]);
            }
            FakeOpenAi.send(exchange, code, "application/json", "{\"error\":{\"message\":\"status " + code + "\"}}");
        };
    }

    /** Answers with {@code then} only once {@code gate} completes. */
    static FakeOpenAi.Response after(CompletableFuture<?> gate, FakeOpenAi.Response then) {
        return (exchange, fake) -> {
            await(gate, fake);
            then.write(exchange, fake);
        };
    }

    /** Sends nothing, not even headers, until the fake closes. */
    static FakeOpenAi.Response hang() {
        return (exchange, fake) -> fake.closed().get(30, TimeUnit.SECONDS);
    }

    static Sse sse() {
        return new Sse();
    }

    /** A complete streamed text answer: one chunk per piece, finish_reason stop, [DONE]. */
    static Sse streamedText(String... pieces) {
        Sse sse = new Sse();
        for (String piece : pieces) {
            sse.data(text(piece));
        }
        return sse.data(finish("stop")).done();
    }

    /** A streamed text answer whose last chunk reports usage, as with {@code stream_options.include_usage}. */
    static Sse streamedTextWithUsage(String text, int promptTokens, int completionTokens) {
        return new Sse().data(text(text)).data(finish("stop")).data(usage(promptTokens, completionTokens)).done();
    }

    /** The usage-only last chunk of a stream: no choices, the counts. */
    static String usage(int promptTokens, int completionTokens) {
        ObjectNode chunk = chunk();
        chunk.putArray("choices");
        chunk.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        return chunk.toString();
    }

    static void await(CompletableFuture<?> gate, FakeOpenAi fake) throws Exception {
        CompletableFuture.anyOf(gate, fake.closed()).get(10, TimeUnit.SECONDS);
    }

    /** An SSE answer written step by step, each step flushed. */
    static final class Sse implements FakeOpenAi.Response {

        @FunctionalInterface
        private interface Step {
            void run(OutputStream out, FakeOpenAi fake) throws Exception;
        }

        private final List<Step> steps = new ArrayList<>();

        Sse data(String json) {
            return raw("data: " + json + "\n\n");
        }

        Sse raw(String text) {
            steps.add((out, fake) -> {
                out.write(text.getBytes(StandardCharsets.UTF_8));
                out.flush();
            });
            return this;
        }

        Sse done() {
            return raw("data: [DONE]\n\n");
        }

        /** Pauses the stream until {@code gate} completes. */
        Sse await(CompletableFuture<?> gate) {
            steps.add((out, fake) -> Responses.await(gate, fake));
            return this;
        }

        /**
         * Keeps sending text chunks until a write fails because the client closed the connection,
         * then completes {@code disconnected}.
         */
        Sse untilDisconnected(CompletableFuture<Void> disconnected) {
            steps.add((out, fake) -> {
                byte[] chunk = ("data: " + text("after-abort") + "\n\n").getBytes(StandardCharsets.UTF_8);
                try {
                    for (int i = 0; i < 100_000; i++) {
                        out.write(chunk);
                        out.flush();
                    }
                    disconnected.completeExceptionally(new AssertionError("the client kept reading"));
                } catch (IOException e) {
                    disconnected.complete(null);
                    throw e;
                }
            });
            return this;
        }

        /**
         * Sends nothing but SSE keep-alive comments ({@code : ping}), one every 20 ms as a server
         * does while its model thinks, until a write fails because the client closed the
         * connection; then completes {@code disconnected}.
         */
        Sse pingsUntilDisconnected(CompletableFuture<Void> disconnected) {
            steps.add((out, fake) -> {
                byte[] ping = ": ping\n\n".getBytes(StandardCharsets.UTF_8);
                try {
                    while (!fake.closed().isDone()) {
                        out.write(ping);
                        out.flush();
                        try {
                            fake.closed().get(20, TimeUnit.MILLISECONDS); // the ping interval
                        } catch (java.util.concurrent.TimeoutException e) {
                            // time for the next ping
                        }
                    }
                    disconnected.completeExceptionally(new AssertionError("the client never left"));
                } catch (IOException e) {
                    disconnected.complete(null);
                    throw e;
                }
            });
            return this;
        }

        @Override
        public void write(com.sun.net.httpserver.HttpExchange exchange, FakeOpenAi fake) throws Exception {
            FakeOpenAi.answering(exchange);
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (Step step : steps) {
                    step.run(out, fake);
                }
            }
        }
    }

    // ---- chunk and message builders

    static String text(String piece) {
        ObjectNode chunk = chunk();
        chunk.withArray("choices").addObject().put("index", 0).putNull("finish_reason")
                .putObject("delta").put("content", piece);
        return chunk.toString();
    }

    static String finish(String reason) {
        ObjectNode chunk = chunk();
        ObjectNode choice = chunk.withArray("choices").addObject().put("index", 0).put("finish_reason", reason);
        choice.putObject("delta");
        return chunk.toString();
    }

    /** The first chunk of a streamed tool call: index, id and name, empty arguments. */
    static String toolCallStart(int index, String id, String name) {
        ObjectNode chunk = chunk();
        ArrayNode calls = chunk.withArray("choices").addObject().put("index", 0).putNull("finish_reason")
                .putObject("delta").putArray("tool_calls");
        calls.addObject().put("index", index).put("id", id).put("type", "function")
                .putObject("function").put("name", name).put("arguments", "");
        return chunk.toString();
    }

    /** A later chunk carrying one piece of a tool call's arguments. */
    static String toolCallArguments(int index, String piece) {
        ObjectNode chunk = chunk();
        ArrayNode calls = chunk.withArray("choices").addObject().put("index", 0).putNull("finish_reason")
                .putObject("delta").putArray("tool_calls");
        calls.addObject().put("index", index).putObject("function").put("arguments", piece);
        return chunk.toString();
    }

    /** A whole (non-streamed) text answer. */
    static String message(String content) {
        ObjectNode body = completion();
        body.withArray("choices").addObject().put("index", 0).put("finish_reason", "stop")
                .putObject("message").put("role", "assistant").put("content", content);
        return body.toString();
    }

    /** A whole (non-streamed) answer asking for tool calls. */
    static String toolCalls(Call... calls) {
        ObjectNode body = completion();
        ObjectNode message = body.withArray("choices").addObject().put("index", 0).put("finish_reason", "tool_calls")
                .putObject("message").put("role", "assistant");
        message.putNull("content");
        ArrayNode array = message.putArray("tool_calls");
        for (Call call : calls) {
            array.addObject().put("id", call.id()).put("type", "function")
                    .putObject("function").put("name", call.name()).put("arguments", call.arguments());
        }
        return body.toString();
    }

    private static ObjectNode chunk() {
        return FakeOpenAi.JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
                .put("model", "test-model");
    }

    private static ObjectNode completion() {
        return FakeOpenAi.JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
                .put("model", "test-model");
    }
}
