package dev.laneway.app;

import dev.laneway.config.ConfigException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code laneway validate --config FILE}: exit 0 when valid, 2 with every problem on stderr. */
@Command(name = "validate", description = "Check a configuration file and report every problem.")
final class ValidateCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The YAML file to check.")
    Path config;

    @Override
    public Integer call() {
        try {
            ConfigSource.load(config, System.getenv());
            System.out.println(config + ": valid");
            return 0;
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            return 2;
        }
    }
}
