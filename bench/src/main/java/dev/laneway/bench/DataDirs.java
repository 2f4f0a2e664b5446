package dev.laneway.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Scratch data directories for the durable store, in {@code java.io.tmpdir}: that is the disk whose
 * fsync is measured (a tmpfs would measure none). BenchMain passes the property on to JMH forks.
 */
final class DataDirs {

    private DataDirs() {
    }

    static Path create(String prefix) throws IOException {
        return Files.createTempDirectory(prefix);
    }

    /** Where the scratch directories go, with the file system's type, e.g. "/tmp (ext4)". */
    static String describe() {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try {
            return tmp + " (" + Files.getFileStore(tmp).type() + ")";
        } catch (IOException e) {
            return tmp.toString();
        }
    }

    /** Bytes of every file in the directory (database, WAL, lock file). */
    static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        }
    }

    static void delete(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
