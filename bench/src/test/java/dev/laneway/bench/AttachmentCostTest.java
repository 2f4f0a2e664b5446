package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The attachment measurement runs end to end and prints every row (it asserts no speed). */
class AttachmentCostTest {

    @Test
    void aShortRun_measuresEveryKind_andItsTableHasEveryRow() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.out;
        System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            AttachmentCost.main(new String[] {"--runs", "5"});
        } finally {
            System.setOut(saved);
        }
        String table = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        for (String row : List.of("text only (baseline)", "image 200 KB, vision", "no vision", "text file 16 KB",
                "voice note 32 KB, transcribed", "PDF 200 KB", "heap (", "SQLite journal")) {
            assertTrue(table.contains(row), row + " missing from:\n" + table);
        }
        assertEquals(1, table.lines().filter(line -> line.startsWith("| text only (baseline)")
                && line.contains("+0.00 ms") && line.contains("1.00×")).count(), table);
    }
}
