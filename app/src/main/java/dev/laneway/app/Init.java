package dev.laneway.app;

import dev.laneway.config.ConfigException;
import dev.laneway.config.ConfigLoader;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.core.LiveCheck;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.agents.openai.ModelCheck;
import dev.laneway.channels.discord.DiscordTokenCheck;
import dev.laneway.channels.slack.SlackTokenCheck;
import dev.laneway.channels.telegram.TelegramTokenCheck;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code laneway init} (docs/configuration.md §18.3): asks for what the flags did not give (on a
 * terminal) or takes the flags alone (in a script), checks each token and the model endpoint live as
 * {@code doctor} does, and writes a commented {@code laneway.yaml} and a {@code .env} (mode 600) for
 * the secrets, then prints the next command. Never overwrites a file without asking, and in a script
 * not without {@code --force}; writes nothing when a check fails unless told to. Never prints a
 * secret: they are read without echo and only written to {@code .env}.
 */
final class Init {

    static final String OLLAMA_URL = "http://127.0.0.1:11434/v1";
    static final List<String> PLATFORMS = List.of("telegram", "discord", "slack");

    /** What the flags (or the environment, for secrets) gave; null where they gave nothing. */
    record Given(List<String> channels, String telegramToken, URI telegramApiUrl, String discordToken,
                 URI discordApiUrl, String slackBotToken, String slackAppToken, URI slackApiUrl, String baseUrl,
                 String apiKey, String model) {
    }

    /** A usage error: exit 2 with the message. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private final Prompter prompter; // null: a script, nothing is asked
    private final PrintWriter out;
    private final Duration timeout;

    Init(Prompter prompter, PrintWriter out, Duration timeout) {
        this.prompter = prompter;
        this.out = out;
        this.timeout = timeout;
    }

    /** Runs init in {@code dir}; returns 0 when the files were written, 1 when nothing was, 2 on bad input. */
    int run(Given given, Path dir, boolean force, boolean check, Map<String, String> env) {
        try {
            Path config = dir.resolve(SetupFiles.CONFIG);
            Path secrets = dir.resolve(SetupFiles.ENV);
            if (!mayWrite(config, force) || !mayWrite(secrets, force)) {
                return 1;
            }
            SetupAnswers answers = answers(given, env);
            if (check && !checksPass(answers)) {
                return 1;
            }
            String yaml = SetupFiles.config(answers, LocalDate.now());
            verify(yaml, answers);
            Files.createDirectories(dir);
            SetupFiles.writeConfig(config, yaml);
            boolean anySecret = !answers.secrets().isEmpty();
            if (anySecret) {
                SetupFiles.writeSecrets(secrets, SetupFiles.env(answers.secrets()));
            }
            out.println("Wrote " + config + (anySecret ? " and " + secrets + " (mode 600: it holds the secrets; keep it"
                    + " out of version control)" : " (no secrets, so no " + SetupFiles.ENV + ")") + ".");
            out.println("Next, start Laneway" + (anySecret ? " with the secrets loaded" : "") + ":");
            out.println("  " + (anySecret ? "set -a; . " + secrets + "; set +a; " : "") + "./laneway run --config " + config);
            out.flush();
            return 0;
        } catch (Refused e) {
            out.println("laneway init: " + e.getMessage());
            out.println("Nothing written.");
            out.flush();
            return 2;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean mayWrite(Path file, boolean force) throws Refused {
        if (force || !Files.exists(file)) {
            return true;
        }
        if (prompter == null) {
            out.println(file + " already exists: nothing written (--force overwrites it; --dir writes elsewhere).");
            out.flush();
            return false;
        }
        if (yes(file + " already exists. Overwrite it? [y/N] ")) {
            return true;
        }
        out.println("Nothing written.");
        out.flush();
        return false;
    }

    private SetupAnswers answers(Given given, Map<String, String> env) throws Refused {
        List<String> channels = channels(given);
        String telegram = channels.contains("telegram")
                ? secret(given.telegramToken(), env, SetupAnswers.TELEGRAM, "Telegram bot token (from @BotFather): ") : null;
        String discord = channels.contains("discord")
                ? secret(given.discordToken(), env, SetupAnswers.DISCORD, "Discord bot token (Developer Portal, Bot): ")
                : null;
        String slackBot = null;
        String slackApp = null;
        if (channels.contains("slack")) {
            slackBot = secret(given.slackBotToken(), env, SetupAnswers.SLACK_BOT, "Slack bot token (xoxb-...): ");
            slackApp = secret(given.slackAppToken(), env, SetupAnswers.SLACK_APP, "Slack app-level token (xapp-...): ");
        }
        String baseUrl = baseUrl(given);
        String apiKey = given.apiKey() != null ? given.apiKey().strip()
                : env.containsKey(SetupAnswers.API_KEY) ? env.get(SetupAnswers.API_KEY).strip()
                : prompter == null ? "" : answer(prompter.askSecret("API key (Enter for none, as for Ollama): "));
        String suggested = baseUrl.contains(":11434") ? "llama3.2" : "gpt-4o-mini";
        String model = given.model() != null ? given.model().strip()
                : prompter == null ? suggested : orDefault(answer(prompter.ask("Model [" + suggested + "]: ")), suggested);
        if (model.isEmpty()) {
            throw new Refused("the model must not be empty (--model llama3.2)");
        }
        return new SetupAnswers(telegram, given.telegramApiUrl(), discord, given.discordApiUrl(), slackBot, slackApp,
                given.slackApiUrl(), baseUrl, apiKey, model);
    }

    private List<String> channels(Given given) throws Refused {
        List<String> raw = given.channels();
        if (raw == null) {
            raw = prompter == null ? List.of() : List.of(answer(prompter.ask(
                    "Chat platforms (telegram, discord, slack; comma-separated; Enter for the console only): "))
                    .split("[,\\s]+"));
        }
        List<String> chosen = new ArrayList<>();
        for (String name : raw) {
            String channel = name.strip().toLowerCase(Locale.ROOT);
            if (channel.isEmpty() || channel.equals("console") || chosen.contains(channel)) {
                continue;
            }
            if (!PLATFORMS.contains(channel)) {
                throw new Refused("unknown chat platform \"" + name.strip() + "\" (choose from telegram, discord, slack)");
            }
            chosen.add(channel);
        }
        return PLATFORMS.stream().filter(chosen::contains).toList();
    }

    /** A secret from its flag, else the environment variable of its name, else asked without echo. */
    private String secret(String flag, Map<String, String> env, String variable, String question) throws Refused {
        String value = flag != null ? flag : env.get(variable);
        if (value == null && prompter != null) {
            value = answer(prompter.askSecret(question));
        }
        if (value == null || value.isBlank()) {
            throw new Refused(question.replaceAll(" \\(.*", "").replace(": ", "") + " is missing (set " + variable
                    + ", or pass its flag)");
        }
        return value.strip();
    }

    private String baseUrl(Given given) throws Refused {
        String url = given.baseUrl();
        if (url == null && prompter != null) {
            url = orDefault(answer(prompter.ask("Model server, an OpenAI-compatible API (Ollama: " + OLLAMA_URL + ") ["
                    + OpenAiSettings.DEFAULT_BASE_URL + "]: ")), OpenAiSettings.DEFAULT_BASE_URL);
        }
        url = url == null ? OpenAiSettings.DEFAULT_BASE_URL : url.strip();
        if (!OpenAiSettings.validBaseUrl(url)) {
            throw new Refused("the model server's URL must be an absolute http or https URL without ?query or"
                    + " #fragment, like " + OLLAMA_URL);
        }
        return url;
    }

    private boolean checksPass(SetupAnswers answers) {
        out.println("Checking, as laneway doctor does:");
        List<LiveChecks.Named> checks = new ArrayList<>();
        if (answers.telegramToken() != null) {
            checks.add(new LiveChecks.Named("telegram token", TelegramTokenCheck.check(orDefault(answers.telegramApiUrl(),
                    ChannelsConfig.Telegram.DEFAULT_API_URL), answers.telegramToken(), timeout)));
        }
        if (answers.discordToken() != null) {
            checks.add(new LiveChecks.Named("discord token", DiscordTokenCheck.check(orDefault(answers.discordApiUrl(),
                    ChannelsConfig.Discord.DEFAULT_API_URL), answers.discordToken(), timeout)));
        }
        if (answers.slackBotToken() != null) {
            URI api = orDefault(answers.slackApiUrl(), ChannelsConfig.Slack.DEFAULT_API_URL);
            checks.add(new LiveChecks.Named("slack bot token", SlackTokenCheck.botToken(api, answers.slackBotToken(), timeout)));
            checks.add(new LiveChecks.Named("slack app token", SlackTokenCheck.appToken(api, answers.slackAppToken(), timeout)));
        }
        checks.add(new LiveChecks.Named("model " + answers.model(),
                ModelCheck.check(answers.baseUrl(), answers.apiKey(), answers.model(), timeout)));
        boolean allPassed = true;
        for (LiveChecks.Named named : checks) {
            LiveCheck result = named.result();
            allPassed &= result.passed();
            out.println((result.passed() ? Doctor.OK : Doctor.FAIL) + named.what() + ": " + result.detail()
                    + (result.fix().isEmpty() ? "" : " -> " + result.fix()));
        }
        out.flush();
        if (allPassed) {
            return true;
        }
        if (prompter != null && yes("A check failed (see above). Write the files anyway? [y/N] ")) {
            return true;
        }
        out.println("Nothing written: fix what the lines above say and run laneway init again"
                + (prompter == null ? " (or pass --skip-checks to write the files without checking)." : "."));
        out.flush();
        return false;
    }

    /** The written config must load: a failure here is a bug in {@link SetupFiles}, not the user's. */
    private static void verify(String yaml, SetupAnswers answers) {
        Map<String, String> env = new HashMap<>(answers.secrets());
        try {
            ConfigLoader.parse(yaml, SetupFiles.CONFIG, env);
        } catch (ConfigException e) {
            throw new IllegalStateException("laneway init made a config that does not validate: " + e.getMessage(), e);
        }
    }

    private boolean yes(String question) {
        String answer = prompter.ask(question);
        return answer != null && (answer.equalsIgnoreCase("y") || answer.equalsIgnoreCase("yes"));
    }

    private String answer(String line) throws Refused {
        if (line == null) {
            throw new Refused("the input ended before every question was answered");
        }
        return line.strip();
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isEmpty() ? fallback : value;
    }

    private static URI orDefault(URI value, URI fallback) {
        return value == null ? fallback : value;
    }
}
