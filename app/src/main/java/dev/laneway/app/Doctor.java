package dev.laneway.app;

import dev.laneway.config.ConfigException;
import dev.laneway.config.ConfigLoader;
import dev.laneway.config.GatewayConfig;
import dev.laneway.config.LanewayConfig;
import dev.laneway.core.LiveCheck;
import dev.laneway.core.jobs.ScheduledJob;
import dev.laneway.store.SqliteStore;
import dev.laneway.store.StoreException;
import dev.laneway.store.StoreInspection;
import dev.laneway.store.redis.RedisStore;
import dev.laneway.store.redis.RedisTarget;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code laneway doctor} (docs/configuration.md §18.2): checks that a configuration can run, one line
 * per check, each failure saying what to do: the file is valid; the store opens and its schema
 * version (read without changing it); each enabled channel's tokens, asked of the platform; each
 * answering agent's model endpoint answers and serves the model; the ops port is free. The checks
 * after the first need a valid file and are not run without one. Never prints a secret: the config
 * problems mask them, and the live checks never quote a token or key.
 */
final class Doctor {

    static final String OK = "ok    ";
    static final String FAIL = "FAIL  ";

    private final PrintWriter out;
    private final Duration timeout;
    private int passed;
    private int failed;

    Doctor(PrintWriter out, Duration timeout) {
        this.out = out;
        this.timeout = timeout;
    }

    /**
     * Runs every check of {@code file} (null: ./laneway.yaml if present, else the built-in defaults)
     * with {@code env} for its {@code ${NAME}} references; returns 0 when all passed, 1 otherwise.
     */
    int run(Path file, Map<String, String> env) {
        LanewayConfig config = config(file, env);
        if (config != null) {
            store(config.gateway());
            LiveChecks.channels(config.channels(), timeout).forEach(c -> report(c.what(), c.result()));
            List<String> jobAgents = config.schedules().stream().map(ScheduledJob::agent).filter(Objects::nonNull)
                    .distinct().toList();
            LiveChecks.models(config.agents(), jobAgents, timeout).forEach(c -> report(c.what(), c.result()));
            opsPort(config.gateway().http());
        }
        int total = passed + failed;
        out.println(failed == 0 ? "all " + total + " checks passed"
                : failed + " of " + total + " checks failed" + (config == null ? " (the others need a valid config)" : ""));
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    private LanewayConfig config(Path file, Map<String, String> env) {
        Path source = file != null ? file : Files.isRegularFile(Path.of("laneway.yaml")) ? Path.of("laneway.yaml") : null;
        if (source == null) {
            report("config", LiveCheck.passed("no laneway.yaml here: the built-in defaults (console chat, echo agent);"
                    + " laneway init writes one"));
            return LanewayConfig.defaults();
        }
        try {
            LanewayConfig config = ConfigLoader.load(source, env);
            report("config", LiveCheck.passed(source + " is valid"));
            return config;
        } catch (ConfigException e) {
            report("config", LiveCheck.failed(source + " has " + e.problems().size() + " problem(s):",
                    "fix them (laneway validate --config " + source + " lists them too)"));
            e.getMessage().lines().forEach(line -> out.println("      " + line));
            return null;
        }
    }

    private void store(GatewayConfig gateway) {
        GatewayConfig.Store store = gateway.store();
        try {
            StoreInspection found = switch (store.kind()) {
                case SQLITE -> SqliteStore.inspect(gateway.dataDir());
                case REDIS -> RedisStore.inspect(new RedisTarget(store.url(), store.fleet()));
            };
            report("store", LiveCheck.passed(found.describe()));
        } catch (StoreException e) {
            report("store", LiveCheck.failed(e.getMessage(), store.kind() == GatewayConfig.Store.Kind.SQLITE
                    ? "see above; the store is gateway.dataDir/laneway.db" : "see above; the store is gateway.store.url"));
        }
    }

    private void opsPort(GatewayConfig.Http http) {
        if (!http.enabled()) {
            report("ops port", LiveCheck.passed("the ops server is off (gateway.http.enabled: false)"));
            return;
        }
        if (http.port() == 0) {
            report("ops port", LiveCheck.passed("any free port (gateway.http.port: 0)"));
            return;
        }
        String where = http.bind() + ":" + http.port();
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(http.bind()), http.port()));
            report("ops port", LiveCheck.passed(where + " is free"));
        } catch (IOException e) {
            report("ops port", LiveCheck.failed(where + " is not free (" + e.getMessage() + ")",
                    "stop what listens there (a gateway already running?) or set gateway.http.port"));
        }
    }

    private void report(String what, LiveCheck check) {
        if (check.passed()) {
            passed++;
            out.println(OK + what + ": " + check.detail());
        } else {
            failed++;
            out.println(FAIL + what + ": " + check.detail() + (check.fix().isEmpty() ? "" : " -> " + check.fix()));
        }
    }
}
