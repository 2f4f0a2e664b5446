package dev.laneway.config;

import dev.laneway.config.YamlNode.MapNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Loads {@code laneway.yaml}: YAML syntax, environment variables, unknown keys, types and values
 * are all checked here, once, and every problem of the file is reported together in one
 * {@link ConfigException}. Text over the {@link ConfigLimits} is refused before it is parsed.
 * What to do when the default file is absent is the caller's choice ({@link LanewayConfig#defaults()}
 * is what an empty file means).
 */
public final class ConfigLoader {

    private ConfigLoader() {
    }

    /**
     * Reads and validates a config file. Problems are reported against {@code file} as given.
     *
     * @param env the environment for {@code ${NAME}} references (usually {@link System#getenv()})
     */
    public static LanewayConfig load(Path file, Map<String, String> env) throws ConfigException {
        String source = file.toString();
        return parse(Utf8Text.decode(read(file, source), source), source, env);
    }

    /** The file's bytes, at most {@link ConfigLimits#MAX_BYTES} of them. */
    private static byte[] read(Path file, String source) throws ConfigException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(ConfigLimits.MAX_BYTES + 1);
        } catch (NoSuchFileException e) {
            throw fileProblem(source, "config file not found: " + file.toAbsolutePath());
        } catch (AccessDeniedException e) {
            throw fileProblem(source, "cannot read config file: permission denied");
        } catch (IOException e) {
            throw fileProblem(source, "cannot read config file: " + Objects.requireNonNullElse(e.getMessage(), e.toString()));
        }
        if (bytes.length > ConfigLimits.MAX_BYTES) {
            throw fileProblem(source, ConfigLimits.tooLarge(sizeOf(file)));
        }
        return bytes;
    }

    /** The file's size, or -1 when it has none (a pipe) or it cannot be read. */
    private static long sizeOf(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.size(file) : -1;
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * Validates config text.
     *
     * @param sourceName how problems name the file, e.g. {@code laneway.yaml}
     * @param env        the environment for {@code ${NAME}} references
     */
    public static LanewayConfig parse(String yamlText, String sourceName, Map<String, String> env)
            throws ConfigException {
        String text = yamlText.startsWith("\uFEFF") ? yamlText.substring(1) : yamlText;
        Problems problems = new Problems();
        if (!ConfigLimits.check(text, problems)) {
            throw new ConfigException(sourceName, problems.inFileOrder());
        }
        Optional<MapNode> root = YamlTreeReader.read(text, problems, new EnvInterpolator(env));
        LanewayConfig config = null;
        try {
            config = root.map(node -> ConfigBinder.bind(node, problems)).orElse(null);
        } catch (IllegalArgumentException e) {
            if (problems.isEmpty()) {
                throw e; // a value the binders let through: a bug here, not in the file
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(sourceName, problems.inFileOrder());
        }
        return config;
    }

    private static ConfigException fileProblem(String source, String message) {
        return new ConfigException(source, List.of(new ConfigProblem("", 0, 0, message)));
    }
}
