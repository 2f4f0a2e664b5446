package dev.laneway.bench;

import dev.laneway.core.channel.TextChunker;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How splitting a reply scales with its size: the time {@link TextChunker#split} takes at 4096
 * characters per chunk for 1 MB and 10 MB texts of several shapes (prose, one long code fence,
 * many small fences, fences whose opening line is longer than the limit, text without boundaries).
 * Linear splitting keeps the 10 MB time near ten times the 1 MB time. Not part of the JMH run:
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.laneway.bench.ChunkerScaling [rounds]
 * </pre>
 * Each figure is the median of {@code rounds} (default 5) splits after as many warm-up splits.
 */
public final class ChunkerScaling {

    private static final int LIMIT = 4096;
    private static final List<String> SHAPES = List.of("prose", "one fence", "small fences", "long openers", "no boundary");

    private ChunkerScaling() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        System.out.println("| text shape | 1 MB | 10 MB | 10 MB ÷ 1 MB |");
        System.out.println("|---|---:|---:|---:|");
        for (String shape : SHAPES) {
            double small = medianMillis(shaped(shape, 1 << 20), rounds);
            double large = medianMillis(shaped(shape, 10 << 20), rounds);
            System.out.printf(Locale.ROOT, "| %s | %.1f ms | %.1f ms | %.1f× |%n", shape, small, large, large / small);
        }
    }

    private static double medianMillis(String text, int rounds) {
        long sink = 0;
        for (int i = 0; i < rounds; i++) {
            sink += TextChunker.split(text, LIMIT).size();
        }
        double[] millis = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            long start = System.nanoTime();
            sink += TextChunker.split(text, LIMIT).size();
            millis[i] = (System.nanoTime() - start) / 1e6;
        }
        if (sink == 42) {
            System.out.print(""); // keeps the splits from being optimised away
        }
        Arrays.sort(millis);
        return millis[rounds / 2];
    }

    static String shaped(String shape, int size) {
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
}
