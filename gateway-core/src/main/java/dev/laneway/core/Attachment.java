package dev.laneway.core;

import java.util.Locale;
import java.util.Objects;

/**
 * A non-text part of an inbound message: a photo, a file, a voice note (docs/behaviour.md §15).
 * It travels with its message through the queue and the journal; its content is fetched only when
 * an agent needs it, through the channel that made it ({@code ChannelAdapter.locate}).
 *
 * @param kind      what the platform called it: {@code photo}, {@code document}, {@code voice},
 *                  {@code audio}, {@code video}, {@code file}, or a part that is no file at all
 *                  ({@code sticker}, {@code location}, {@code poll}, ...)
 * @param name      the file name, or null when the platform gives none
 * @param mediaType the media type the platform declared ({@code image/png}), or null
 * @param size      the size in bytes the platform declared, or -1 when unknown
 * @param ref       how the channel finds the content again (a Telegram file id, a Discord CDN URL, a
 *                  Slack {@code url_private}), or null for a part that cannot be fetched. It may be a
 *                  signed URL: it is kept in the journal but never logged ({@link #toString} leaves it out)
 */
public record Attachment(String kind, String name, String mediaType, long size, String ref) {

    public Attachment {
        Objects.requireNonNull(kind, "kind");
        size = size < 0 ? -1 : size;
    }

    /** A part that cannot be fetched (a sticker, a location), or one whose details are unknown. */
    public Attachment(String kind, String name) {
        this(kind, name, null, -1, null);
    }

    /** Whether the channel can fetch its content. */
    public boolean fetchable() {
        return ref != null && !ref.isBlank();
    }

    /** The name the user sees: the file name, else the kind. */
    public String label() {
        return name == null || name.isBlank() ? kind : name;
    }

    /**
     * The line that stands for it in the agent's prompt, after its message's text
     * (docs/behaviour.md §15.2): {@code [file: report.pdf (application/pdf, 1.2 MB)]}.
     */
    public String marker() {
        StringBuilder line = new StringBuilder("[file: ").append(label()).append(" (")
                .append(mediaType == null ? kind : mediaType);
        if (size >= 0) {
            line.append(", ").append(humanSize(size));
        }
        return line.append(")]").toString();
    }

    /** {@code 512 B}, {@code 1.2 KB}, {@code 20 MB}: a size as people read it (1 KB = 1024 B). */
    public static String humanSize(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        String number = value >= 10 || value == Math.rint(value)
                ? Long.toString(Math.round(value)) : String.format(Locale.ROOT, "%.1f", value);
        return number + " " + units[unit];
    }

    /** Everything but {@link #ref}, which may be a signed URL. */
    @Override
    public String toString() {
        return "Attachment[kind=" + kind + ", name=" + name + ", mediaType=" + mediaType + ", size=" + size
                + (fetchable() ? ", fetchable" : "") + "]";
    }
}
