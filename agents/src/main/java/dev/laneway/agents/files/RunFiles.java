package dev.laneway.agents.files;

import dev.laneway.core.agent.AttachmentLoader;
import dev.laneway.core.agent.LoadedFile;
import dev.laneway.core.agent.MessageFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A run's attachments as files on disk, for the {@code command} agent (docs/behaviour.md §15.2): each
 * fetched attachment is written to a directory of the run's own (its name kept, made unique), handed
 * to the command as {@code LANEWAY_ATTACHMENTS} (one absolute path per line), and the directory is
 * deleted when the run ends ({@link #close}). A file that could not be fetched is left out, with one
 * notice line. Owned by one run thread.
 */
public final class RunFiles implements AutoCloseable {

    /** The environment variable that names the files. */
    public static final String ENV = "LANEWAY_ATTACHMENTS";

    private final Path dir;
    private final List<Path> paths;
    private final List<String> notices;

    private RunFiles(Path dir, List<Path> paths, List<String> notices) {
        this.dir = dir;
        this.paths = List.copyOf(paths);
        this.notices = List.copyOf(notices);
    }

    /** Fetches {@code files} with {@code loader} and writes them under a new directory in {@code parent}. */
    public static RunFiles write(AttachmentLoader loader, List<MessageFiles> files, Path parent) throws IOException {
        if (files.isEmpty()) {
            return new RunFiles(null, List.of(), List.of());
        }
        Files.createDirectories(parent);
        Path dir = Files.createTempDirectory(parent, "run-");
        List<Path> paths = new ArrayList<>();
        List<String> notices = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (MessageFiles message : files) {
            for (LoadedFile file : loader.load(message)) {
                if (!file.ok()) {
                    notices.add(FileNotices.notOpened(file.attachment().label(), file.problem()));
                    continue;
                }
                Path path = dir.resolve(unique(safeName(file.attachment().label()), used));
                Files.write(path, file.content());
                paths.add(path.toAbsolutePath());
            }
        }
        return new RunFiles(dir, paths, notices);
    }

    public List<Path> paths() {
        return paths;
    }

    public List<String> notices() {
        return notices;
    }

    /** The value of {@link #ENV}: the paths, one per line. */
    public String envValue() {
        return String.join("\n", paths.stream().map(Path::toString).toList());
    }

    /** A file name without directories or control characters, never empty, never a dot name. */
    static String safeName(String name) {
        String base = name.replace('\\', '/');
        base = base.substring(base.lastIndexOf('/') + 1).replaceAll("[\\p{Cntrl}]", "_").strip();
        return base.isEmpty() || base.equals(".") || base.equals("..") ? "file" : base;
    }

    private static String unique(String name, Set<String> used) {
        String candidate = name;
        for (int i = 2; !used.add(candidate); i++) {
            candidate = i + "-" + name;
        }
        return candidate;
    }

    /** Deletes the run's directory and everything in it. */
    @Override
    public void close() {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // left for the next start's sweep of the directory (docs/behaviour.md §15.4)
        }
    }
}
