package dev.laneway.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code laneway} command line. */
@Command(name = "laneway", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "A lane-aware chat gateway: Discord, Telegram and Slack bots answered by an LLM agent.",
        subcommands = {RunCommand.class, ValidateCommand.class, ConfigCommand.class, DoctorCommand.class,
                InitCommand.class, FleetCommand.class, VersionCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the CLI and returns its exit code (0 ok, 1 runtime failure, 2 bad config or usage). */
    public static int execute(String... args) {
        return cli().execute(args);
    }

    /** The command line, ready to execute (tests set its out and err). */
    static CommandLine cli() {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((error, commandLine, parseResult) -> {
            commandLine.getErr().println("laneway: " + error.getMessage());
            return 1;
        });
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
