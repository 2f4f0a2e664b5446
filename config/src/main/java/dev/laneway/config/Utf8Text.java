package dev.laneway.config;

import dev.laneway.config.YamlNode.Pos;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/** Decodes a config file as UTF-8; bytes that are not UTF-8 are reported at their line and column. */
final class Utf8Text {

    private Utf8Text() {
    }

    static String decode(byte[] bytes, String source) throws ConfigException {
        if (startsWith(bytes, 0xFF, 0xFE) || startsWith(bytes, 0xFE, 0xFF)) {
            throw problem(source, Pos.NONE, "config file is UTF-16 text, not UTF-8 (save it as UTF-8)");
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            String bad = String.format(Locale.ROOT, "0x%02X", bytes[in.position()] & 0xFF);
            throw problem(source, positionAfter(out.flip()),
                    "config file is not UTF-8 text: byte " + bad + " is not valid UTF-8 here (save the file as UTF-8)");
        }
        return out.flip().toString();
    }

    /** The line and column of the character that would follow {@code decoded}. */
    private static Pos positionAfter(CharSequence decoded) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < decoded.length(); i++) {
            if (decoded.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        String lastLine = decoded.subSequence(lineStart, decoded.length()).toString();
        return new Pos(line, lastLine.codePointCount(0, lastLine.length()) + 1);
    }

    private static boolean startsWith(byte[] bytes, int first, int second) {
        return bytes.length >= 2 && (bytes[0] & 0xFF) == first && (bytes[1] & 0xFF) == second;
    }

    private static ConfigException problem(String source, Pos pos, String message) {
        return new ConfigException(source, List.of(new ConfigProblem("", pos.line(), pos.column(), message)));
    }
}
