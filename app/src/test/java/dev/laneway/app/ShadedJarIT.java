package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What the runnable jar carries besides classes. */
class ShadedJarIT {

    @Test
    void nativeLibraries_areSqlitesForTheSupportedPlatformsOnly() throws Exception {
        Set<String> natives;
        try (JarFile jar = new JarFile(CliProcess.jar().toFile())) {
            natives = jar.stream().map(entry -> entry.getName())
                    .filter(name -> name.matches(".*\\.(so|dll|dylib|jnilib)"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(new TreeSet<>(Set.of(
                "org/sqlite/native/Linux/x86_64/libsqlitejdbc.so",
                "org/sqlite/native/Linux/aarch64/libsqlitejdbc.so",
                "org/sqlite/native/Linux-Musl/x86_64/libsqlitejdbc.so",
                "org/sqlite/native/Linux-Musl/aarch64/libsqlitejdbc.so",
                "org/sqlite/native/Mac/x86_64/libsqlitejdbc.dylib",
                "org/sqlite/native/Mac/aarch64/libsqlitejdbc.dylib",
                "org/sqlite/native/Windows/x86_64/sqlitejdbc.dll")), natives);
    }
}
