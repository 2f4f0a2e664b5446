package dev.laneway.app;

import dev.laneway.config.ConfigException;
import dev.laneway.config.ConfigLoader;
import dev.laneway.config.LanewayConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the configuration comes from: {@code --config FILE} (which must exist), else
 * {@code laneway.yaml} in the working directory if present, else the defaults (console + echo).
 */
final class ConfigSource {

    static final Path DEFAULT_FILE = Path.of("laneway.yaml");

    private ConfigSource() {
    }

    static LanewayConfig load(Path explicit, Map<String, String> env) throws ConfigException {
        if (explicit != null) {
            return ConfigLoader.load(explicit, env);
        }
        if (Files.isRegularFile(DEFAULT_FILE)) {
            return ConfigLoader.load(DEFAULT_FILE, env);
        }
        return LanewayConfig.defaults();
    }

    /** A short description of where the config came from, for the start-up line. */
    static String describe(Path explicit) {
        if (explicit != null) {
            return explicit.toString();
        }
        return Files.isRegularFile(DEFAULT_FILE) ? DEFAULT_FILE.toString() : "built-in defaults";
    }
}
