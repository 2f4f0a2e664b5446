package dev.laneway.agents.files;

import dev.laneway.core.Attachment;
import dev.laneway.core.agent.AttachmentLoader;
import dev.laneway.core.agent.LoadedFile;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.agent.settings.AttachmentSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a model gets for each attachment of a turn, and what the user is told (docs/behaviour.md §15.2):
 * an image becomes an image part for a vision model (a data URL, or the platform's URL when it is
 * shareable and the agent asks for URLs) and a placeholder otherwise; a text file (plain, Markdown,
 * code, CSV, JSON, ...) is inlined up to {@code inlineTextChars}, with a note when cut; a voice note or
 * audio file is transcribed when a transcription endpoint is configured; any other file is named only.
 * Files that could not be fetched, audio that could not be heard and files that cannot be read each
 * give one notice line naming the file and the reason. Stateless; thread-safe.
 */
public final class FileReading {

    private static final Set<String> IMAGE_TYPES = Set.of("image/png", "image/jpeg", "image/gif", "image/webp");
    private static final Set<String> TEXT_TYPES = Set.of("application/json", "application/xml", "application/x-yaml",
            "application/yaml", "application/javascript", "application/x-sh", "application/sql", "application/csv",
            "application/x-ndjson", "application/toml", "application/x-python");
    private static final Set<String> TEXT_EXTENSIONS = Set.of("txt", "md", "markdown", "csv", "tsv", "json", "jsonl",
            "yaml", "yml", "toml", "xml", "html", "css", "js", "ts", "java", "kt", "py", "rb", "go", "rs", "c", "h",
            "cpp", "hpp", "cs", "sh", "sql", "log", "ini", "conf", "properties", "gradle", "swift", "php", "scala");

    private final AttachmentLoader loader;
    private final AttachmentSettings settings;
    private final Transcriber transcriber;

    /** @param transcriber null when no transcription endpoint is configured */
    public FileReading(AttachmentLoader loader, AttachmentSettings settings, Transcriber transcriber) {
        this.loader = loader;
        this.settings = settings;
        this.transcriber = transcriber;
    }

    /** Reads nothing: every file is "not fetched here" (tests and agents built without the gateway's loader). */
    public static FileReading none() {
        return new FileReading(AttachmentLoader.NONE, AttachmentSettings.DEFAULTS, null);
    }

    /**
     * Fetches and converts the turn's files, one message at a time (the per-message limit).
     *
     * @param vision     whether the model takes images
     * @param imageUrls  hand a vision model the platform's URL when it is shareable, instead of a data URL
     */
    public Prepared prepare(List<MessageFiles> files, boolean vision, boolean imageUrls) {
        List<Piece> pieces = new ArrayList<>();
        List<String> notices = new ArrayList<>();
        boolean imageWithoutVision = false;
        for (MessageFiles message : files) {
            for (LoadedFile file : loader.load(message)) {
                Attachment attachment = file.attachment();
                String name = attachment.label();
                if (!file.ok()) {
                    pieces.add(new Piece(attachment, "(it could not be opened: " + file.problem() + ")", null));
                    notices.add(FileNotices.notOpened(name, file.problem()));
                } else if (IMAGE_TYPES.contains(file.mediaType())) {
                    if (vision) {
                        String url = imageUrls && file.shareableUrl() != null ? file.shareableUrl()
                                : "data:" + file.mediaType() + ";base64," + Base64.getEncoder().encodeToString(file.content());
                        pieces.add(new Piece(attachment, "", url));
                    } else {
                        pieces.add(new Piece(attachment, "(an image; this model cannot see images)", null));
                        imageWithoutVision = true;
                    }
                } else if (isText(file)) {
                    pieces.add(new Piece(attachment, inline(new String(file.content(), StandardCharsets.UTF_8)), null));
                } else if (isAudio(file)) {
                    pieces.add(transcribe(file, notices));
                } else {
                    pieces.add(new Piece(attachment, "(this kind of file cannot be read here)", null));
                    notices.add(FileNotices.cannotRead(name, file.mediaType()));
                }
            }
        }
        return new Prepared(pieces, notices, imageWithoutVision ? FileNotices.NO_VISION : null);
    }

    private Piece transcribe(LoadedFile file, List<String> notices) {
        Attachment attachment = file.attachment();
        if (transcriber == null) {
            notices.add(FileNotices.cannotHear(attachment.label()));
            return new Piece(attachment, "(a voice note or audio; it could not be transcribed)", null);
        }
        try {
            String text = transcriber.transcribe(attachment.label(), file.mediaType(), file.content());
            return new Piece(attachment, "Transcript: " + text, null);
        } catch (Transcriber.Failed failed) {
            notices.add(FileNotices.notTranscribed(attachment.label(), failed.getMessage()));
            return new Piece(attachment, "(a voice note or audio; the transcription failed)", null);
        }
    }

    /** The text, cut to {@code inlineTextChars} characters (code points) with a note saying so. */
    String inline(String text) {
        int total = text.codePointCount(0, text.length());
        int max = settings.inlineTextChars();
        if (total <= max) {
            return text;
        }
        String head = text.substring(0, text.offsetByCodePoints(0, max));
        return head + "\n[cut: the file has " + total + " characters; only the first " + max + " are shown]";
    }

    private static boolean isText(LoadedFile file) {
        String type = baseType(file.mediaType());
        boolean textual = type.startsWith("text/") || TEXT_TYPES.contains(type) || type.endsWith("+json")
                || type.endsWith("+xml") || TEXT_EXTENSIONS.contains(extension(file.attachment().label()));
        return textual && MediaSniffer.isUtf8Text(file.content());
    }

    private static boolean isAudio(LoadedFile file) {
        String kind = file.attachment().kind();
        return baseType(file.mediaType()).startsWith("audio/") || kind.equals("voice") || kind.equals("audio");
    }

    private static String baseType(String mediaType) {
        return mediaType == null ? "" : mediaType.toLowerCase(Locale.ROOT).split(";", 2)[0].strip();
    }

    private static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    /**
     * What the model gets for one attachment, right after its marker.
     *
     * @param text     text to add after the marker (empty for an image part alone)
     * @param imageUrl an image part's URL (a data URL or a shareable one), or null
     */
    public record Piece(Attachment attachment, String text, String imageUrl) {
    }

    /**
     * The turn's pieces in marker order, the notice lines for the user, and the one "no vision" notice
     * (or null), which the agent sends once per session.
     */
    public record Prepared(List<Piece> pieces, List<String> notices, String noVisionNotice) {

        public static final Prepared NONE = new Prepared(List.of(), List.of(), null);

        public boolean hasImages() {
            return pieces.stream().anyMatch(piece -> piece.imageUrl() != null);
        }
    }
}
