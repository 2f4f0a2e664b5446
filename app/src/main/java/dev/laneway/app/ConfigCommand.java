package dev.laneway.app;

import dev.laneway.config.ConfigException;
import dev.laneway.config.ConfigPrinter;
import dev.laneway.config.ConfigSchema;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

/**
 * {@code laneway config show}: the effective configuration, defaults filled in, secrets masked;
 * {@code laneway config schema}: the JSON Schema of the file (docs/configuration.md §18).
 */
@Command(name = "config", description = "Inspect the configuration.",
        subcommands = {ConfigCommand.Show.class, ConfigCommand.SchemaCommand.class})
final class ConfigCommand implements Runnable {

    @Override
    public void run() {
        System.out.println("Usage: laneway config show [--config FILE]");
        System.out.println("       laneway config schema");
    }

    @Command(name = "schema", description = "Print the JSON Schema (draft 2020-12) of laneway.yaml, for editors.")
    static final class SchemaCommand implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().print(ConfigSchema.json());
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    @Command(name = "show", description = "Print the effective configuration (defaults filled in, secrets masked).")
    static final class Show implements Callable<Integer> {

        @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "The YAML file (default: ./laneway.yaml if present).")
        Path config;

        @Override
        public Integer call() {
            try {
                System.out.print(ConfigPrinter.effectiveYaml(ConfigSource.load(config, System.getenv())));
                return 0;
            } catch (ConfigException e) {
                System.err.println(e.getMessage());
                return 2;
            }
        }
    }
}
