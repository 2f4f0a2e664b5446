package dev.laneway.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code laneway doctor [--config FILE]}: exit 0 when every check passed, 1 otherwise (docs/configuration.md §18.2). */
@Command(name = "doctor", description = "Check that a configuration can run: file, store, tokens, models, ops port.")
final class DoctorCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "The YAML file (default: ./laneway.yaml if present).")
    Path config;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "How long each live check may take (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Override
    public Integer call() {
        return new Doctor(spec.commandLine().getOut(), Duration.ofSeconds(Math.max(1, timeoutSeconds)))
                .run(config, System.getenv());
    }
}
