package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class TelegramMarkupTest {

    @Test
    void plainText_hasNothingToFormat() {
        assertEquals(Optional.empty(), TelegramMarkup.toHtml("just words, 2 < 3 & done"));
        assertEquals(Optional.empty(), TelegramMarkup.toHtml("a lone ** marker and a `tick"));
    }

    @Test
    void inlineMarkup_isRenderedAndTheRestEscaped() {
        assertEquals(Optional.of("<b>Note</b>: run <code>a &amp;&amp; b</code> when x &lt; y"),
                TelegramMarkup.toHtml("**Note**: run `a && b` when x < y"));
    }

    @Test
    void links_areRenderedWithAnEscapedHref() {
        assertEquals(Optional.of("see <a href=\"https://example.com/?a=1&amp;b=2\">the docs</a>"),
                TelegramMarkup.toHtml("see [the docs](https://example.com/?a=1&b=2)"));
    }

    @Test
    void headings_becomeBold() {
        assertEquals(Optional.of("<b>Plan</b>\nstep"), TelegramMarkup.toHtml("## Plan\nstep"));
    }

    @Test
    void codeFence_becomesPreWithItsLanguage_andItsContentIsNotInterpreted() {
        String text = "Try:\n```java\nif (a < b && **c**) {}\n```\ndone";
        assertEquals(Optional.of("Try:\n<pre><code class=\"language-java\">if (a &lt; b &amp;&amp; **c**) {}</code></pre>\ndone"),
                TelegramMarkup.toHtml(text));
    }

    @Test
    void fenceWithoutLanguage_andAnUnclosedFence() {
        assertEquals(Optional.of("<pre><code>x</code></pre>"), TelegramMarkup.toHtml("```\nx\n```"));
        assertEquals(Optional.empty(), TelegramMarkup.toHtml("```\nnever closed"));
    }

    @Provide
    Arbitrary<String> markdownish() {
        Arbitrary<String> token = Arbitraries.of("**", "`", "```", "```py", "[", "](", "https://x.io/a?b=1&c", ")",
                "#", "## ", "\n", "<", ">", "&", "\"", "word", " ", "<b>", "</code>");
        return token.list().ofMaxSize(40).map(parts -> String.join("", parts));
    }

    @Property(tries = 2000)
    void renderedHtml_alwaysHasBalancedTags_andEscapesEverythingElse(@ForAll("markdownish") String text) {
        TelegramMarkup.toHtml(text).ifPresent(html -> {
            for (String tag : new String[] {"b", "code", "pre", "a"}) {
                int open = html.split("<" + tag + "[ >]", -1).length - 1;
                int close = html.split("</" + tag + ">", -1).length - 1;
                assertEquals(open, close, tag + " in " + html);
            }
            String visible = html.replaceAll("<[^>]+>", "");
            assertTrue(!visible.contains("<") && !visible.contains(">"), "everything else is escaped: " + html);
        });
    }
}
