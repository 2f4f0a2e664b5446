package dev.laneway.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** One entry of {@code agents.list}: which provider answers, and that provider's settings. */
public sealed interface AgentConfig permits AgentConfig.Echo, AgentConfig.OpenAi, AgentConfig.Command {

    /** The {@code provider:} values, in the order error messages list them. */
    List<String> PROVIDERS = List.of("echo", "openai", "command");

    /** Tool names an OpenAI agent may list under {@code tools:}. */
    List<String> KNOWN_TOOLS = List.of("current_time");

    /** The {@code provider:} value of this entry. */
    String provider();

    /** {@code provider: echo}: the built-in demo agent, replying with what it received after {@code delay}. */
    record Echo(Duration delay) implements AgentConfig {

        public static final Echo DEFAULTS = new Echo(Duration.ZERO);

        public Echo {
            Objects.requireNonNull(delay, "delay");
        }

        @Override
        public String provider() {
            return "echo";
        }
    }

    /**
     * {@code provider: openai}: any OpenAI-compatible chat completions server.
     *
     * @param baseUrl            absolute http(s) URL, e.g. {@code https://api.openai.com/v1}
     * @param systemPrompt       empty = no system message
     * @param timeout            per model call ({@code timeoutMs})
     * @param temperature        0..2, null = the server's default
     * @param maxTokens          >= 1, null = the server's default
     * @param maxRetries         retries of a failed model call
     * @param tools              names from {@link #KNOWN_TOOLS}
     */
    record OpenAi(URI baseUrl, Secret apiKey, String model, String systemPrompt, boolean stream,
                  Duration timeout, int maxHistoryMessages, Double temperature, Integer maxTokens,
                  int maxRetries, List<String> tools) implements AgentConfig {

        public static final URI DEFAULT_BASE_URL = URI.create("https://api.openai.com/v1");

        public OpenAi {
            Objects.requireNonNull(baseUrl, "baseUrl");
            Objects.requireNonNull(apiKey, "apiKey");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(systemPrompt, "systemPrompt");
            Objects.requireNonNull(timeout, "timeout");
            tools = List.copyOf(tools);
        }

        @Override
        public String provider() {
            return "openai";
        }
    }

    /**
     * {@code provider: command}: runs a local program per turn.
     *
     * @param command the program and its arguments, never empty
     * @param timeout per turn ({@code timeoutMs})
     */
    record Command(List<String> command, Duration timeout) implements AgentConfig {

        public Command {
            command = List.copyOf(command);
            Objects.requireNonNull(timeout, "timeout");
        }

        @Override
        public String provider() {
            return "command";
        }
    }
}
