package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module arrows of docs/architecture.md §1, checked on the sources: core imports no other module and
 * no SDK, HTTP client or YAML; config, commands and agents import only core; no channel imports
 * another channel.
 */
class ArchitectureTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)", Pattern.MULTILINE);

    @Test
    void coreImportsNoOtherModuleAndNoSdk() {
        assertNoImports("gateway-core", List.of("dev.laneway.config", "dev.laneway.commands", "dev.laneway.agents",
                "dev.laneway.channels", "dev.laneway.app", "com.fasterxml", "java.net.http", "net.dv8tion",
                "org.telegram", "com.slack", "picocli", "ch.qos.logback"));
    }

    @Test
    void configCommandsAndAgentsImportOnlyCore() {
        List<String> others = List.of("dev.laneway.config", "dev.laneway.commands", "dev.laneway.agents",
                "dev.laneway.channels", "dev.laneway.app");
        for (String module : List.of("config", "commands", "agents")) {
            String own = "dev.laneway." + module;
            assertNoImports(module, others.stream().filter(p -> !p.equals(own)).toList());
        }
    }

    @Test
    void theStoresImportOnlyCore_andTheRedisClientStaysInStoreRedis() {
        List<String> modules = List.of("dev.laneway.config", "dev.laneway.commands", "dev.laneway.agents",
                "dev.laneway.channels", "dev.laneway.app");
        List<String> sqlite = new ArrayList<>(modules);
        sqlite.addAll(List.of("dev.laneway.store.redis", "redis.clients", "org.apache.commons.pool2"));
        assertNoImports("store", sqlite);
        List<String> redis = new ArrayList<>(modules);
        redis.addAll(List.of("java.sql", "org.sqlite"));
        assertNoImports("store-redis", redis);
    }

    @Test
    void channelsImportNoOtherChannelAndNoApp() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT.resolve("channels"))) {
            List<Path> channels = dirs.filter(Files::isDirectory).toList();
            assertTrue(channels.size() >= 1);
            for (Path channel : channels) {
                String name = channel.getFileName().toString();
                List<String> forbidden = new ArrayList<>(List.of("dev.laneway.app", "dev.laneway.agents", "dev.laneway.commands"));
                channels.stream().map(c -> c.getFileName().toString()).filter(c -> !c.equals(name))
                        .forEach(other -> forbidden.add("dev.laneway.channels." + other));
                assertNoImports("channels/" + name, forbidden);
            }
        }
    }

    private static void assertNoImports(String module, List<String> forbiddenPrefixes) {
        Path sources = ROOT.resolve(module).resolve("src/main/java");
        assertTrue(Files.isDirectory(sources), "no sources at " + sources);
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(file -> {
                Matcher matcher = IMPORT.matcher(read(file));
                while (matcher.find()) {
                    String imported = matcher.group(1);
                    forbiddenPrefixes.stream().filter(imported::startsWith).findFirst()
                            .ifPresent(p -> violations.add(ROOT.relativize(file) + " imports " + imported));
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertEquals(List.of(), violations);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
