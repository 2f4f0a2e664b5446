package dev.laneway.channels.discord;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.dv8tion.jda.api.interactions.InteractionContextType;
import net.dv8tion.jda.api.interactions.commands.OptionMapping;
import net.dv8tion.jda.api.interactions.commands.OptionType;
import net.dv8tion.jda.api.interactions.commands.SlashCommandInteraction;
import net.dv8tion.jda.api.interactions.commands.build.CommandData;
import net.dv8tion.jda.api.interactions.commands.build.Commands;
import net.dv8tion.jda.api.interactions.commands.build.OptionData;

/**
 * The native slash commands: their definitions (registered at start) and the translation of an
 * invocation into the command line the gateway's command layer already understands, so
 * {@code /queue mode:collect cap:10} picked from the menu and {@code /queue collect cap:10} typed as
 * text behave the same.
 */
final class SlashCommands {

    static final String QUEUE = "queue";
    static final String STATUS = "status";
    static final String STOP = "stop";
    static final String NEW = "new";

    /** {@code /queue}'s option for {@code /queue status} and {@code /queue cancel} (docs/behaviour.md §6.9). */
    static final String ACTION = "action";

    /** {@code /queue}'s options, in the order they are written on the command line. */
    static final List<String> QUEUE_OPTIONS = List.of("mode", "debounce", "cap", "drop");

    /** Answers only the invoker needs to see; {@code /stop} and {@code /new} are shown to the channel. */
    private static final Set<String> EPHEMERAL = Set.of(QUEUE, STATUS);

    private SlashCommands() {
    }

    static List<CommandData> definitions() {
        OptionData mode = new OptionData(OptionType.STRING, "mode", "What a message does while a run is active")
                .addChoice("steer", "steer")
                .addChoice("followup", "followup")
                .addChoice("collect", "collect")
                .addChoice("steer-backlog", "steer-backlog")
                .addChoice("interrupt", "interrupt")
                .addChoice("reset to default", "reset");
        OptionData debounce = new OptionData(OptionType.STRING, "debounce",
                "Wait this long after the last queued message, e.g. 1500ms, 2s, 0 to disable");
        OptionData cap = new OptionData(OptionType.INTEGER, "cap", "Most messages kept in the queue")
                .setMinValue(1);
        OptionData drop = new OptionData(OptionType.STRING, "drop", "What happens when the queue is full")
                .addChoice("old", "old")
                .addChoice("new", "new")
                .addChoice("summarize", "summarize");
        OptionData action = new OptionData(OptionType.STRING, ACTION, "Your queued messages (the other options are then ignored)")
                .addChoice("status: my queued messages", "status")
                .addChoice("cancel my queued messages", "cancel")
                .addChoice("cancel everyone's queued messages (admins)", "cancel all");
        return List.of(
                withContexts(Commands.slash(QUEUE, "Show or change how messages queue while the agent works")
                        .addOptions(mode, debounce, cap, drop, action)),
                withContexts(Commands.slash(STATUS, "Queue settings, queue depth and the active run")),
                withContexts(Commands.slash(STOP, "Abort the active run and clear the queue")),
                withContexts(Commands.slash(NEW, "Start a fresh conversation")));
    }

    private static CommandData withContexts(CommandData command) {
        return command.setContexts(InteractionContextType.GUILD, InteractionContextType.BOT_DM);
    }

    /** The command line for an invocation, or empty for a command this channel does not define. */
    static Optional<String> commandLine(SlashCommandInteraction interaction) {
        Map<String, String> options = new LinkedHashMap<>();
        for (OptionMapping option : interaction.getOptions()) {
            options.put(option.getName(), option.getAsString());
        }
        return commandLine(interaction.getName(), options);
    }

    /**
     * {@code /queue} with {@code mode=collect, cap=10} becomes {@code /queue collect cap:10}: the mode
     * first, then the other options in a fixed order as {@code name:value}, whitespace removed from
     * values (a value is one token, see {@link #oneToken}).
     */
    static Optional<String> commandLine(String name, Map<String, String> options) {
        return switch (name) {
            case QUEUE -> Optional.of(queueLine(options));
            case STATUS, STOP, NEW -> Optional.of("/" + name);
            default -> Optional.empty();
        };
    }

    private static String queueLine(Map<String, String> options) {
        String action = options.get(ACTION);
        if (action != null && List.of("status", "cancel", "cancel all").contains(action)) {
            return "/" + QUEUE + " " + action; // the other options are ignored
        }
        StringBuilder line = new StringBuilder("/").append(QUEUE);
        for (String option : QUEUE_OPTIONS) {
            String token = oneToken(options.get(option));
            if (token.isEmpty()) {
                continue;
            }
            line.append(' ').append(option.equals("mode") ? token : option + ":" + token);
        }
        return line.toString();
    }

    /**
     * A value with every space removed, by the command parser's own notion of a space (Java
     * whitespace and Unicode space separators such as a phone keyboard's no-break space), so it can
     * never split into a second word and turn a {@code /queue} command into an inline directive
     * whose leftover goes to the agent.
     */
    static String oneToken(String value) {
        if (value == null) {
            return "";
        }
        StringBuilder token = new StringBuilder(value.length());
        value.chars().filter(c -> !Character.isWhitespace(c) && !Character.isSpaceChar(c)).forEach(c -> token.append((char) c));
        return token.toString();
    }

    static boolean ephemeral(String name) {
        return EPHEMERAL.contains(name);
    }
}
