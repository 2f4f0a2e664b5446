package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Input that is too big, too deep or not text: a clear problem naming the file, line and column, quickly. */
class ConfigLimitsTest {

    @TempDir
    Path dir;

    private ConfigException loadFailure(byte[] content) throws Exception {
        Path file = dir.resolve("laneway.yaml");
        Files.write(file, content);
        return assertThrows(ConfigException.class, () -> ConfigLoader.load(file, Map.of()));
    }

    @Test
    void fileOverOneMebibyte_isRefusedBeforeParsing_withItsSize() {
        byte[] content = ("gateway:\n  dataDir: " + "x".repeat(10_000_000) + "\n").getBytes(StandardCharsets.UTF_8);
        ConfigException e = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> loadFailure(content));
        assertEquals(dir.resolve("laneway.yaml") + ": config file is too large: " + content.length
                + " bytes, the limit is 1048576 (1 MiB)", e.getMessage());
    }

    @Test
    void fileOfExactlyTheLimit_isRead() throws Exception {
        String head = "# padding\n";
        String line = "#" + "x".repeat(1022) + "\n"; // 1 KiB lines
        String text = head + line.repeat(1023) + "#" + "y".repeat(1024 - head.length() - 2) + "\n";
        assertEquals(ConfigLimits.MAX_BYTES, text.length());
        Path file = dir.resolve("laneway.yaml");
        Files.writeString(file, text);
        assertEquals(LanewayConfig.defaults(), ConfigLoader.load(file, Map.of()));
    }

    @Test
    void textOverTheLimit_isRefusedByParseToo() {
        String problem = onlyProblem("#" + "x".repeat(ConfigLimits.MAX_BYTES) + "\n");
        assertEquals("laneway.yaml: config is too large: 1048578 characters, the limit is 1048576 (1 MiB)", problem);
    }

    @Test
    void lineOverTheLengthLimit_isAProblemAtThatLine_withoutWaitingForTheParser() {
        String yaml = "gateway:\r\n  dataDir: " + "x".repeat(900_000) + "\r\n";
        String problem = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> onlyProblem(yaml));
        assertEquals("laneway.yaml: line is 900011 characters long, the limit is 65536 (write a long value over"
                + " several lines, e.g. as a block scalar: \"key: |\") (line 2, column 1)", problem);
    }

    @Test
    void longValueOverSeveralLines_isAccepted() throws Exception {
        String line = "x".repeat(60_000);
        LanewayConfig config = parse("agents:\n  list:\n    a:\n      provider: openai\n      model: m\n"
                + "      systemPrompt: |\n" + ("        " + line + "\n").repeat(10));
        assertEquals(10 * 60_001, ((dev.laneway.core.agent.settings.OpenAiSettings)
                config.agents().list().get("a")).systemPrompt().length());
    }

    @Test
    void nestingDeeperThanTheLimit_isOneProblemWithLineAndColumn_inEveryStyle() {
        int depth = 1_100;
        assertEquals("laneway.yaml: the YAML is nested deeper than 64 levels (no setting is nested more than five"
                + " deep) (line 1, column 256)", onlyProblem("a: " + "{b: ".repeat(depth) + "1" + "}".repeat(depth)));
        assertEquals("laneway.yaml: the YAML is nested deeper than 64 levels (no setting is nested more than five"
                + " deep) (line 1, column 67)", onlyProblem("a: " + "[".repeat(depth) + "1" + "]".repeat(depth)));
        StringBuilder block = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            block.append(" ".repeat(i)).append("k").append(i).append(":\n");
        }
        block.append(" ".repeat(depth)).append("v: 1\n");
        String problem = onlyProblem(block.toString());
        assertTrue(problem.startsWith("laneway.yaml: the YAML is nested deeper than 64 levels"), problem);
        assertTrue(problem.endsWith("(line 65, column 65)"), problem);
    }

    @Test
    void nestingAtTheLimit_isOnlyAboutUnknownKeys() {
        String yaml = "lanes:\n  x: " + "{a: ".repeat(62) + "1" + "}".repeat(62) + "\n";
        String problem = onlyProblem(yaml);
        assertFalse(problem.contains("nested"), problem);
    }

    @Test
    void veryDeepNesting_isRejectedQuickly() {
        int depth = 250_000;
        String yaml = "a: " + "[\n".repeat(depth) + "]\n".repeat(depth);
        String problem = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> onlyProblem(yaml));
        assertTrue(problem.contains("nested deeper than 64 levels"), problem);
    }

    @Test
    void veryLongKey_isNotEchoedInFull() {
        String problem = onlyProblem("messages:\n  ? " + "q".repeat(60_000) + "\n  : 1\n");
        assertTrue(problem.startsWith("laneway.yaml: messages.qqqq"), problem);
        assertTrue(problem.contains("…: unknown key (known keys: queue, inbound, steer, maxAnswerChars) (line 2, column 5)"), problem);
        assertTrue(problem.length() < 300, problem);
    }

    @Test
    void latin1File_namesTheBadByteWithLineAndColumn() throws Exception {
        byte[] content = "agents:\n  list:\n    a: { provider: echo }\n# café\n".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(dir.resolve("laneway.yaml") + ": config file is not UTF-8 text: byte 0xE9 is not valid UTF-8"
                + " here (save the file as UTF-8) (line 4, column 6)", loadFailure(content).getMessage());
    }

    @Test
    void truncatedUtf8Sequence_afterMultibyteCharacters_countsColumnsInCharacters() throws Exception {
        byte[] valid = "x: \"é€😀".getBytes(StandardCharsets.UTF_8);
        byte[] content = new byte[valid.length + 1];
        System.arraycopy(valid, 0, content, 0, valid.length);
        content[valid.length] = (byte) 0xE2; // the first byte of a three-byte character, then the end
        assertTrue(loadFailure(content).getMessage().endsWith("byte 0xE2 is not valid UTF-8 here (save the file as UTF-8)"
                + " (line 1, column 8)"));
    }

    @Test
    void utf16File_isNamedAsSuch() throws Exception {
        byte[] content = "gateway: {}\n".getBytes(StandardCharsets.UTF_16);
        assertEquals(dir.resolve("laneway.yaml") + ": config file is UTF-16 text, not UTF-8 (save it as UTF-8)",
                loadFailure(content).getMessage());
    }

    @Test
    void utf8ByteOrderMark_isAccepted() throws Exception {
        Path file = dir.resolve("laneway.yaml");
        Files.write(file, ("\uFEFFmessages: { queue: { cap: 3 } }\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(3, ConfigLoader.load(file, Map.of()).messages().queue().cap());
    }
}
