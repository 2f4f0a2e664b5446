package dev.laneway.app;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDate;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The two files {@code laneway init} writes (docs/configuration.md §18.3): a commented
 * {@code laneway.yaml} that names every secret as {@code ${NAME}}, and a {@code .env} that holds
 * them, created with mode 600 (owner read and write only) before a byte is written. Stateless.
 */
final class SetupFiles {

    static final String CONFIG = "laneway.yaml";
    static final String ENV = ".env";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9._:/+=@%,-]*");

    private SetupFiles() {
    }

    static String config(SetupAnswers answers, LocalDate today) {
        StringBuilder yaml = new StringBuilder();
        yaml.append("# laneway.yaml, written by `laneway init` on ").append(today).append(".\n");
        yaml.append("# Every key, its default and its rules: docs/configuration.md. Check this file with\n");
        yaml.append("# `laneway validate --config laneway.yaml`, and the whole set-up with `laneway doctor`.\n");
        yaml.append("# No secret is in this file: each ${NAME} below is read from the environment when\n");
        yaml.append("# Laneway starts; .env beside this file holds them (load it with: set -a; . ./.env; set +a).\n");
        yaml.append("# Completion in editors: laneway config schema > laneway.schema.json, then make the first line\n");
        yaml.append("# of this file: # yaml-language-server: $schema=./laneway.schema.json\n\n");
        yaml.append("gateway:\n");
        yaml.append("  dataDir: ./data          # the store: sessions, history and queued messages survive a restart\n");
        yaml.append("  http: { bind: 127.0.0.1, port: 8787 }   # /healthz, /readyz, /metrics, /status\n\n");
        if (answers.channels().isEmpty()) {
            yaml.append("# No chat platform was chosen: the console chat (stdin/stdout) answers. Add telegram,\n");
            yaml.append("# discord or slack under channels: with `laneway init` or by hand (docs/configuration.md §10).\n\n");
        } else {
            yaml.append("channels:\n");
            if (answers.telegramToken() != null) {
                yaml.append("  telegram:                # a bot from @BotFather\n");
                yaml.append("    enabled: true\n");
                yaml.append("    token: ${").append(SetupAnswers.TELEGRAM).append("}\n");
                url(yaml, answers.telegramApiUrl());
            }
            if (answers.discordToken() != null) {
                yaml.append("  discord:                 # a bot of a Developer Portal application; turn on the\n");
                yaml.append("    enabled: true          # Message Content intent (channels/discord/README.md)\n");
                yaml.append("    token: ${").append(SetupAnswers.DISCORD).append("}\n");
                url(yaml, answers.discordApiUrl());
            }
            if (answers.slackBotToken() != null) {
                yaml.append("  slack:                   # an app in Socket Mode (the manifest: channels/slack/README.md)\n");
                yaml.append("    enabled: true\n");
                yaml.append("    botToken: ${").append(SetupAnswers.SLACK_BOT).append("}\n");
                yaml.append("    appToken: ${").append(SetupAnswers.SLACK_APP).append("}\n");
                url(yaml, answers.slackApiUrl());
            }
            yaml.append("\n");
        }
        yaml.append("agents:\n");
        yaml.append("  list:\n");
        yaml.append("    assistant:             # the agent that answers every message\n");
        yaml.append("      provider: openai     # any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio)\n");
        yaml.append("      baseUrl: ").append(quote(answers.baseUrl())).append("\n");
        if (!answers.apiKey().isEmpty()) {
            yaml.append("      apiKey: ${").append(SetupAnswers.API_KEY).append("}\n");
        }
        yaml.append("      model: ").append(quote(answers.model())).append("\n");
        yaml.append("      systemPrompt: \"You are a helpful assistant in a chat. Answer briefly.\"\n\n");
        yaml.append("messages:\n");
        yaml.append("  queue:\n");
        yaml.append("    mode: collect          # messages sent while the agent works: steer | followup | collect |\n");
        yaml.append("                           # steer-backlog | interrupt (docs/behaviour.md §3; /queue changes it per chat)\n");
        return yaml.toString();
    }

    /** {@code NAME=value} lines; a value with characters a shell would read is single-quoted. */
    static String env(Map<String, String> secrets) {
        StringBuilder env = new StringBuilder("# Secrets for laneway.yaml, written by `laneway init`. Keep this file private\n"
                + "# (mode 600) and out of version control. Load it with: set -a; . ./.env; set +a\n");
        secrets.forEach((name, value) -> env.append(name).append('=').append(shellValue(value)).append('\n'));
        return env.toString();
    }

    /**
     * Writes {@code .env}: created owner-only (600) where the file system has POSIX modes, so the
     * secrets are never readable by others, not even for a moment; an existing file is replaced.
     */
    static void writeSecrets(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } else {
            Files.createFile(file);
        }
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    static void writeConfig(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static void url(StringBuilder yaml, java.net.URI url) {
        if (url != null) {
            yaml.append("    apiUrl: ").append(quote(url.toString())).append("\n");
        }
    }

    /** A double-quoted YAML scalar; {@code ${} is escaped so the loader does not read it as a variable. */
    static String quote(String value) {
        return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")
                .replace("${", "$${") + '"';
    }

    private static String shellValue(String value) {
        return SHELL_SAFE.matcher(value).matches() ? value : "'" + value.replace("'", "'\\''") + "'";
    }
}
