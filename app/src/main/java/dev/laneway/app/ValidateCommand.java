package dev.laneway.app;

import dev.laneway.config.ConfigAdvice;
import dev.laneway.config.ConfigException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code laneway validate --config FILE}: exit 0 when valid (warnings listed), 2 with every problem on stderr. */
@Command(name = "validate", description = "Check a configuration file and report every problem.")
final class ValidateCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The YAML file to check.")
    Path config;

    @Override
    public Integer call() {
        try {
            List<String> warnings = ConfigAdvice.warnings(ConfigSource.load(config, System.getenv()));
            System.out.println(config + ": valid" + (warnings.isEmpty() ? "" : ", with " + warnings.size() + " warning(s)"));
            warnings.forEach(warning -> System.out.println("  warning: " + warning));
            return 0;
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            return 2;
        }
    }
}
