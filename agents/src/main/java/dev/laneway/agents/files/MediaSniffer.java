package dev.laneway.agents.files;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What a file's first bytes say it is (docs/behaviour.md §15.4, a media type that lies): the image
 * formats a vision model takes, PDF, Ogg, and whether the bytes are UTF-8 text. Only the formats
 * Laneway treats differently are recognised; anything else keeps its declared type.
 */
final class MediaSniffer {

    private MediaSniffer() {
    }

    /** The media type the content's signature names, or null when it names none of the known ones. */
    static String sniff(byte[] content) {
        if (startsWith(content, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
            return "image/png";
        }
        if (startsWith(content, 0xFF, 0xD8, 0xFF)) {
            return "image/jpeg";
        }
        if (startsWith(content, 'G', 'I', 'F', '8')) {
            return "image/gif";
        }
        if (content.length >= 12 && startsWith(content, 'R', 'I', 'F', 'F')
                && content[8] == 'W' && content[9] == 'E' && content[10] == 'B' && content[11] == 'P') {
            return "image/webp";
        }
        if (startsWith(content, '%', 'P', 'D', 'F', '-')) {
            return "application/pdf";
        }
        if (startsWith(content, 'O', 'g', 'g', 'S')) {
            return "audio/ogg";
        }
        return null;
    }

    /** Whether the bytes decode as UTF-8 without a NUL (what "text" means for inlining). */
    static boolean isUtf8Text(byte[] content) {
        for (byte b : content) {
            if (b == 0) {
                return false;
            }
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /**
     * The type to use and whether the declared one lied: a declared image that is none of the image
     * formats, or content whose signature names another family than the declared type's.
     */
    static Verdict judge(String declared, byte[] content) {
        String sniffed = sniff(content);
        String family = declared == null ? "" : declared.toLowerCase(Locale.ROOT).split("/", 2)[0];
        if (family.equals("image") && (sniffed == null || !sniffed.startsWith("image/"))) {
            return new Verdict(sniffed != null ? sniffed : "application/octet-stream", true);
        }
        if (sniffed != null && !family.isEmpty() && !sniffed.startsWith(family + "/")
                && !(family.equals("application") && declared.toLowerCase(Locale.ROOT).equals("application/octet-stream"))
                && !(sniffed.equals("audio/ogg") && (family.equals("video") || family.equals("audio")))) {
            return new Verdict(sniffed, true);
        }
        return new Verdict(sniffed != null ? sniffed : declared, false);
    }

    /** @param mediaType the type to treat the content as; {@code lied}: the declared type was wrong */
    record Verdict(String mediaType, boolean lied) {
    }

    private static boolean startsWith(byte[] content, int... signature) {
        if (content.length < signature.length) {
            return false;
        }
        for (int i = 0; i < signature.length; i++) {
            if ((content[i] & 0xFF) != signature[i]) {
                return false;
            }
        }
        return true;
    }
}
