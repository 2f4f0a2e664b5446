package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
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
}
