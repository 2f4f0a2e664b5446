package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class TextChunkerTest {

    @Test
    void shortText_isOneChunk() {
        assertEquals(List.of("hello"), TextChunker.split("hello", 100));
    }

    @Test
    void splitsOnParagraphsFirst() {
        String text = "a".repeat(60) + "\n\n" + "b".repeat(60);
        assertEquals(List.of("a".repeat(60), "b".repeat(60)), TextChunker.split(text, 100));
    }

    @Test
    void thenOnSentences() {
        String text = "First sentence is here. " + "Second one goes on and on and on and on and on.";
        List<String> chunks = TextChunker.split(text, 40);
        assertEquals("First sentence is here.", chunks.get(0));
    }

    @Test
    void neverCutsInsideACodeFence_movingTheCutBeforeIt() {
        String code = "```java\n" + "int x = 1;\n".repeat(5) + "```";
        String text = "Intro text here.\n" + code;
        List<String> chunks = TextChunker.split(text, 70);
        assertEquals("Intro text here.", chunks.get(0));
        assertEquals(code, chunks.get(1));
    }

    @Test
    void aFenceLongerThanTheLimit_isClosedAndReopenedWithItsLanguage() {
        String code = "```python\n" + "print('line')\n".repeat(20) + "```";
        List<String> chunks = TextChunker.split(code, 100);
        assertTrue(chunks.size() > 1);
        for (String chunk : chunks) {
            assertTrue(chunk.length() <= 100, chunk.length() + ": " + chunk);
            assertTrue(chunk.startsWith("```python\n"), chunk);
            assertTrue(chunk.endsWith("```"), chunk);
        }
    }

    @Property(tries = 300)
    void everyChunkFitsAndNoTextIsLost(@ForAll @StringLength(max = 3000) String text,
                                       @ForAll @IntRange(min = 16, max = 500) int limit) {
        List<String> chunks = TextChunker.split(text, limit);
        for (String chunk : chunks) {
            assertTrue(chunk.length() <= limit, "chunk of " + chunk.length() + " > " + limit);
            assertTrue(chunk.isEmpty() || !Character.isHighSurrogate(chunk.charAt(chunk.length() - 1)),
                    "a chunk must not end in half a surrogate pair");
        }
        String joined = String.join("", chunks).replaceAll("\\p{javaWhitespace}+", "");
        String original = text.replaceAll("\\p{javaWhitespace}+", "");
        if (!text.contains("```")) {
            assertEquals(original, joined);
        }
    }

    @Test
    void aFenceWhoseOpeningLineIsLongerThanTheLimit_isSplitAndTheSplitEnds() {
        // the opening line used to be put back in front of the rest every round: the rest never shrank
        String text = "```" + "x".repeat(6000) + "\nmore\n```\nafter";
        List<String> chunks = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> TextChunker.split(text, 4096));
        assertTrue(chunks.size() >= 2, chunks.size() + " chunks");
        for (String chunk : chunks) {
            assertTrue(chunk.length() <= 4096, "chunk of " + chunk.length());
        }
        assertTrue(chunks.get(0).startsWith("```x") && chunks.get(0).endsWith("\n```"), "the first chunk closes the fence");
        assertTrue(chunks.get(1).startsWith("```\nx"), "the next one reopens it bare (the opening line is too long to repeat)");
        assertEquals(text.replace("`", "").replace("\n", ""), String.join("", chunks).replace("`", "").replace("\n", ""));
    }

    @Test
    void aReopenedFenceRepeatsAShortOpeningLine_evenAtASmallLimit() {
        String text = "```ab\n" + "x".repeat(200) + "\n```";
        List<String> chunks = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> TextChunker.split(text, 24));
        assertTrue(chunks.size() > 1);
        for (String chunk : chunks) {
            assertTrue(chunk.length() <= 24, chunk);
            assertTrue(chunk.startsWith("```ab\n"), chunk);
        }
    }

    @Test
    void aCutBeforeAFenceNeverEndsInsideAnEarlierFenceOfTheSameChunk() {
        // the only line break before the second fence lies inside the first one
        String text = "```\n" + "a\n".repeat(10) + "```" + "x".repeat(10) + "```\n" + "code\n".repeat(30) + "```";
        for (String chunk : TextChunker.split(text, 60)) {
            assertTrue(chunk.length() <= 60, chunk);
            assertEquals(0, count(chunk, "```") % 2, "a chunk must not leave a fence open: " + chunk);
        }
    }

    @Test
    void head_cutsAtTheBestBoundary_andClosesAFenceOpenAtTheCut() {
        assertEquals("short", TextChunker.head("short", 100));
        String prose = "One sentence here. ".repeat(20);
        String head = TextChunker.head(prose, 100);
        assertTrue(head.length() <= 100 && head.endsWith("here."), head);
        String code = "Here:\n```java\n" + "int x = 1;\n".repeat(100) + "```";
        String cut = TextChunker.head(code, 100);
        assertTrue(cut.length() <= 100, cut);
        assertTrue(cut.startsWith("Here:\n```java\nint x = 1;") && cut.endsWith("x = 1;\n```"), "the fence is closed, not dropped: " + cut);
        assertEquals(cut, TextChunker.head(code + "x".repeat(10_000_000), 100), "only the start is read");
    }

    /**
     * Splitting is linear by design: the characters it reads (every {@code charAt}, output included)
     * stay within a small multiple of the input, for 1 MB and 10 MB inputs of the shapes that used
     * to be slow or endless: prose, one huge fence, many small fences, fences with endless opening
     * lines, text without any boundary.
     */
    @Test
    void splittingReadsEachCharacterABoundedNumberOfTimes_atOneAndTenMegabytes() {
        for (int size : new int[] {1 << 20, 10 << 20}) {
            for (String shape : List.of("prose", "one fence", "small fences", "long openers", "no boundary")) {
                String text = shaped(shape, size);
                CountingText counting = new CountingText(text);
                List<TextChunker.Piece> pieces = TextChunker.pieces(counting, 4096);
                long rendered = 0;
                for (TextChunker.Piece piece : pieces) {
                    rendered += piece.render(counting).length();
                }
                assertTrue(rendered >= text.length() / 2, shape + ": the chunks hold the text");
                double perChar = (double) counting.reads / text.length();
                assertTrue(perChar <= 12, shape + " at " + size + " chars: " + perChar + " reads per character");
            }
        }
    }

    private static String shaped(String shape, int size) {
        StringBuilder text = new StringBuilder(size + 8192);
        while (text.length() < size) {
            switch (shape) {
                case "prose" -> text.append("A sentence of some words. Another one follows here!\n\n");
                case "one fence" -> text.append(text.isEmpty() ? "```java\n" : "int x = 1; // a line of code\n");
                case "small fences" -> text.append("see ```\nx\n``` and ``` y ``` then\n");
                case "long openers" -> text.append("```").append("x".repeat(6000)).append("\nmore\n```\nafter\n");
                case "no boundary" -> text.append("x".repeat(1000)).append("```");
                default -> throw new IllegalArgumentException(shape);
            }
        }
        return text.toString();
    }

    /** A text that counts how many characters are read from it. */
    private static final class CountingText implements CharSequence {
        private final String text;
        long reads;

        CountingText(String text) {
            this.text = text;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            reads++;
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            reads += end - start;
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            reads += text.length();
            return text;
        }
    }

    /**
     * For any text (rich in fences, long lines, boundaries and surrogate pairs) and limit: the split
     * ends, every chunk fits, no chunk ends in half a surrogate pair, and the chunks are the text in
     * order, cut only at whitespace, decorated at most with a closing fence and a reopened fence.
     */
    @Property(tries = 500)
    void piecesCoverTheTextInOrder(@ForAll("fenceRich") String text, @ForAll @IntRange(min = 16, max = 300) int limit) {
        List<TextChunker.Piece> pieces = TextChunker.pieces(text, limit);
        int covered = 0;
        for (TextChunker.Piece piece : pieces) {
            assertTrue(piece.length() <= limit, "chunk of " + piece.length() + " > " + limit);
            assertTrue(text.substring(covered, piece.start()).isBlank(), "only whitespace between chunks");
            assertTrue(piece.start() <= piece.end(), piece.toString());
            covered = Math.max(covered, piece.end());
            assertTrue(piece.prefix().isEmpty()
                    || piece.prefix().startsWith("```") && piece.prefix().endsWith("\n")
                    && piece.prefix().indexOf('\n') == piece.prefix().length() - 1
                    && piece.prefix().length() <= limit / 4 + 1, "a reopened fence: " + piece.prefix());
            assertTrue(piece.suffix().isEmpty() || piece.suffix().equals("\n```"), piece.suffix());
            int end = piece.end();
            assertTrue(end == piece.start() || end == text.length() || !Character.isHighSurrogate(text.charAt(end - 1))
                    || !Character.isLowSurrogate(text.charAt(end)), "a chunk must not end in half a surrogate pair");
        }
        assertTrue(text.substring(covered).isBlank(), "the text after the last chunk is whitespace");
        assertEquals(pieces.stream().map(piece -> piece.render(text)).filter(chunk -> !chunk.isBlank()).toList(),
                TextChunker.split(text, limit));
    }

    @Provide
    Arbitrary<String> fenceRich() {
        Arbitrary<String> fragment = Arbitraries.oneOf(
                Arbitraries.of("```", "```python\n", "```\n", "\n", "\n\n", ". ", "! ", " ", "  ", "\t",
                        "word", "`", "😀", "\uD83D"),
                Arbitraries.strings().withChars('x', 'y', '`', ' ').ofMaxLength(40),
                Arbitraries.integers().between(1, 700).map("z"::repeat));
        return fragment.list().ofMaxSize(60).map(parts -> String.join("", parts));
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }
}
