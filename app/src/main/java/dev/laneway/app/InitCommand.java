package dev.laneway.app;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code laneway init}: exit 0 when the files were written, 1 when nothing was (a check failed, a
 * file exists), 2 on bad input (docs/configuration.md §18.3). On a terminal it asks for what the
 * flags do not give; with {@code --no-input}, or when input is not a terminal, it takes the flags
 * and the environment only.
 */
@Command(name = "init", description = "Write laneway.yaml and .env for your chat platforms and model, checking each"
        + " token and the model live.")
final class InitCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--channels", split = ",", paramLabel = "NAME",
            description = "telegram, discord, slack (comma-separated); console for none.")
    List<String> channels;

    @Option(names = "--telegram-token", paramLabel = "TOKEN",
            description = "Default: $TELEGRAM_BOT_TOKEN (prefer it: flags are visible to other users).")
    String telegramToken;

    @Option(names = "--telegram-api-url", paramLabel = "URL", description = "A Bot API server other than Telegram's.")
    URI telegramApiUrl;

    @Option(names = "--discord-token", paramLabel = "TOKEN", description = "Default: $DISCORD_BOT_TOKEN.")
    String discordToken;

    @Option(names = "--discord-api-url", paramLabel = "URL", description = "A REST API other than Discord's.")
    URI discordApiUrl;

    @Option(names = "--slack-bot-token", paramLabel = "TOKEN", description = "Default: $SLACK_BOT_TOKEN.")
    String slackBotToken;

    @Option(names = "--slack-app-token", paramLabel = "TOKEN", description = "Default: $SLACK_APP_TOKEN.")
    String slackAppToken;

    @Option(names = "--slack-api-url", paramLabel = "URL", description = "A Web API other than Slack's.")
    URI slackApiUrl;

    @Option(names = "--base-url", paramLabel = "URL",
            description = "The OpenAI-compatible API (default https://api.openai.com/v1; Ollama: " + Init.OLLAMA_URL + ").")
    String baseUrl;

    @Option(names = "--api-key", paramLabel = "KEY", description = "Default: $OPENAI_API_KEY, else none.")
    String apiKey;

    @Option(names = "--model", paramLabel = "NAME", description = "Default: llama3.2 on Ollama's port, else gpt-4o-mini.")
    String model;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".", description = "Where to write (default: here).")
    Path dir;

    @Option(names = "--force", description = "Overwrite laneway.yaml and .env without asking.")
    boolean force;

    @Option(names = "--skip-checks", description = "Write the files without asking the platforms and the model server.")
    boolean skipChecks;

    @Option(names = "--no-input", description = "Ask nothing, even on a terminal: the flags and the environment only.")
    boolean noInput;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "How long each live check may take (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Override
    public Integer call() {
        Init.Given given = new Init.Given(channels, telegramToken, telegramApiUrl, discordToken, discordApiUrl,
                slackBotToken, slackAppToken, slackApiUrl, baseUrl, apiKey, model);
        Prompter prompter = noInput ? null : Prompter.console();
        return new Init(prompter, spec.commandLine().getOut(), Duration.ofSeconds(Math.max(1, timeoutSeconds)))
                .run(given, dir, force, !skipChecks, System.getenv());
    }
}
