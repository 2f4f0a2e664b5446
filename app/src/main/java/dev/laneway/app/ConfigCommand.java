package dev.laneway.app;

import dev.laneway.config.ConfigException;
import dev.laneway.config.ConfigPrinter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code laneway config show}: the effective configuration, defaults filled in, secrets masked. */
@Command(name = "config", description = "Inspect the configuration.", subcommands = ConfigCommand.Show.class)
final class ConfigCommand implements Runnable {

    @Override
    public void run() {
        System.out.println("Usage: laneway config show [--config FILE]");
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
