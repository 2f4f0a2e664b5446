package dev.laneway.app;

import dev.laneway.config.ConfigAdvice;
import dev.laneway.config.ConfigException;
import dev.laneway.config.LanewayConfig;
import java.nio.file.Path;
import java.time.Duration;
import dev.laneway.store.StoreException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code laneway run}: runs the gateway in the foreground until SIGTERM / Ctrl-C, or until the
 * console's input ends (then every pending message is answered first).
 */
@Command(name = "run", description = "Run the gateway in the foreground (console + echo when nothing else is configured).")
final class RunCommand implements Callable<Integer> {

    private static final Duration IDLE_WAIT_AT_END_OF_INPUT = Duration.ofMinutes(10);

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "The YAML file (default: ./laneway.yaml if present).")
    Path config;

    @Override
    public Integer call() throws InterruptedException {
        LanewayConfig loaded;
        try {
            loaded = ConfigSource.load(config, System.getenv());
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        ConfigAdvice.warnings(loaded).forEach(warning -> System.err.println("laneway: warning: " + warning));
        boolean consoleOnly = loaded.channels().console().enabled() && !loaded.channels().anyPlatformEnabled();
        Logging.configure(consoleOnly);
        CountDownLatch inputEnded = new CountDownLatch(1);
        GatewayApp app;
        try {
            app = new GatewayApp(loaded, System.in, System.out, inputEnded::countDown);
        } catch (StoreException | IllegalArgumentException e) {
            System.err.println("laneway: " + e.getMessage());
            return 2;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(app::shutdown, "laneway-shutdown"));
        try {
            app.start();
        } catch (UncheckedIOException e) {
            System.err.println("laneway: " + e.getMessage());
            app.shutdown();
            return 2;
        }
        if (app.consoleEnabled()) {
            System.err.println("Laneway console (config: " + ConfigSource.describe(config) + "). Type a message and press"
                    + " Enter; /queue, /status, /stop and /new work here. Ctrl-D ends the input, Ctrl-C quits.");
        }
        inputEnded.await();
        app.awaitIdle(IDLE_WAIT_AT_END_OF_INPUT);
        app.shutdown();
        return 0;
    }
}
