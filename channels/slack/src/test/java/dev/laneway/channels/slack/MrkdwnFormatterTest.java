package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.MrkdwnFormatter.format;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class MrkdwnFormatterTest {

    @Test
    void boldItalicAndStrike_becomeSlackMarks() {
        assertEquals("*bold* and *also bold*", format("**bold** and __also bold__"));
        assertEquals("_italic_ and _this_", format("*italic* and _this_"));
        assertEquals("*bold* then _italic_", format("**bold** then *italic*"));
        assertEquals("~gone~", format("~~gone~~"));
    }

    @Test
    void links_becomeAngleBracketLinks_andUrlsAreNeverRestyled() {
        assertEquals("see <https://example.com/a__b__c|the docs>", format("see [the docs](https://example.com/a__b__c)"));
        assertEquals("<https://img.example/x.png|diagram>", format("![diagram](https://img.example/x.png)"));
        assertEquals("<https://example.com>", format("<https://example.com>"));
        assertEquals("bare https://example.com/__init__.py stays", format("bare https://example.com/__init__.py stays"));
    }

    @Test
    void headings_becomeBoldLines() {
        assertEquals("*Setup*\ntext", format("## Setup\ntext"));
        assertEquals("*Install now*", format("# Install **now**"));
        assertEquals("#hashtag", format("#hashtag"));
    }

    @Test
    void bulletsBecomeDots_andQuotesStay() {
        assertEquals("• one\n  • two\n• three", format("* one\n  - two\n+ three"));
        assertEquals("> quoted *bold*", format("> quoted **bold**"));
    }

    @Test
    void ampersandAndAngleBrackets_areEscaped() {
        assertEquals("a &lt; b &amp;&amp; c &gt; d", format("a < b && c > d"));
    }

    @Test
    void codeBlocksAndInlineCode_keepTheirMarkup_butAreEscaped() {
        String fenced = "```python\nx = a**b  # __dunder__ <tag> & [l](u)\n```";
        String escapedFence = "```\nx = a**b  # __dunder__ &lt;tag&gt; &amp; [l](u)\n```";
        assertEquals("*Code:*\n" + escapedFence + "\n_done_", format("**Code:**\n" + fenced + "\n*done*"));
        assertEquals("use `**kwargs` and `a &lt; b`, *really*", format("use `**kwargs` and `a < b`, **really**"));
        assertEquals("``a ` b`` _x_", format("``a ` b`` *x*"));
        assertEquals("`List&lt;String&gt;`", format("`List<String>`"));
        assertEquals("```\nMap&lt;K, V&gt; m; // a &amp;&amp; b\n```", format("```\nMap<K, V> m; // a && b\n```"));
    }

    @Test
    void aFencesLanguageTag_isDropped_asSlackWouldShowItAsTheFirstLineOfCode() {
        assertEquals("```\nprint(1)\n```", format("```python\nprint(1)\n```"));
        assertEquals("  ```\nx\n  ```", format("  ```js title=\"a.js\"\nx\n  ```"), "indentation kept, whole info string dropped");
        assertEquals("````\nx\n````", format("````rust\nx\n````"));
        assertEquals("```\nsh\n```\n```\ny\n```", format("```bash\nsh\n```\n```yaml\ny\n```"), "every block, closings untouched");
        assertEquals("```x = 1``` done", format("```x = 1``` done"), "a one-line block keeps its text");
    }

    @Test
    void slackControlSyntaxInModelOutput_neverBecomesAMentionOrALink_inCodeOrOutside() {
        List<String> hostile = List.of(
                "<!channel> <!here> <!everyone> <@U123> <#C123> <https://evil.example|innocent>",
                "`<!channel>` and `<@U123|bob>`",
                "```\n<!here> <@U999>\n```",
                "``<!subteam^S123>``",
                "[ping](!channel) [me](@U123) [room](#C42) [x](<!here>) [y](javascript:alert(1))",
                "> <!channel> quoted",
                "# <!here> heading",
                "* <@U1> bullet",
                "<mailto:a@b.c|<!channel>>",
                "\u0002" + "0\u0002 placeholder smuggling <!here>");
        for (String text : hostile) {
            String out = format(text);
            for (String opener : List.of("<!", "<@", "<#")) {
                assertFalse(out.contains(opener), "'" + opener + "' in " + out + " (from " + text + ")");
            }
            assertFalse(out.replaceAll("<(?:https?://|mailto:)[^|<>\\s]+(?:\\|[^<>]*)?>", "").contains("<"),
                    "a raw '<' that is not a web link in " + out);
        }
        assertEquals("[ping](!channel)", format("[ping](!channel)"), "only web links become Slack links");
    }

    @Test
    void aLinkInsideALinkLabel_showsAsItsUrl_andLeavesNoPlaceholderBehind() {
        assertEquals("<http://b|http://a>", format("[<http://a>](http://b)"));
        assertEquals("<https://b|mail mailto:x@y.z>", format("[mail <mailto:x@y.z>](https://b)"));
        assertEquals("<http://z|a http://x b http://y>", format("[a <http://x> b <http://y>](http://z)"));
        assertEquals("*<http://b|http://a>*", format("**[<http://a>](http://b)**"));
        assertEquals("<http://x|a¦b>", format("[a|b](http://x)"));
    }

    @Test
    void adversarialLinks_neverLeakControlCharactersOrMentions() {
        List<String> hostile = List.of(
                "[<http://a>](http://b)",
                "[<!here>](http://x) [<@U1>](https://y) [<#C1|general>](mailto:a@b.c)",
                "[x](http://a|<!here>) [y](http://a><!channel>)",
                "<http://a|<!channel>> <https://b|@here> <mailto:x@y.z|<@U1>>",
                "[![img](http://a)](http://b) [[nested](http://a)](http://b)",
                "[<http://a>](javascript:alert(1)) [<http://a>](<!here>)",
                "[`<!here>`](http://a) [**<http://a>**](http://b)",
                "<!subteam^S123|@team> [t](<!subteam^S123>)",
                "# [<http://a>](http://b)\n> [<http://a>](http://b)\n* [<http://a>](http://b)");
        for (String text : hostile) {
            assertSafe(text, format(text));
        }
    }

    /** Whatever the model writes: no placeholder survives, and every {@code <} opens a web link. */
    @Property(tries = 2000)
    void anyMixOfMarkupAndSlackSyntax_isSafe(@ForAll("tokens") List<String> tokens) {
        String text = String.join("", tokens);
        assertSafe(text, format(text));
    }

    @Provide
    Arbitrary<List<String>> tokens() {
        // link pieces appear twice, so links inside links and labels come up often
        return Arbitraries.of("[", "[", "]", "(", ")", "<", ">", "<http://a>", "<http://a>", "](http://b)",
                "](http://b)", "http://a", "https://b.c/x_y", "mailto:m@n.o", "!here",
                "!channel", "!everyone", "@U1", "#C1", "!subteam^S1", "|", "*", "**", "_", "__", "~~", "`", "```",
                "\n", "# ", "> ", "- ", " ", "x", "&", "&lt;", "!", "\u0001", "\u0002", "0", "1")
                .list().ofMaxSize(30);
    }

    private static void assertSafe(String in, String out) {
        assertFalse(out.contains("\u0001") || out.contains("\u0002"), "a placeholder in " + out + " (from " + in + ")");
        for (String opener : List.of("<!", "<@", "<#")) {
            assertFalse(out.contains(opener), "'" + opener + "' in " + out + " (from " + in + ")");
        }
        assertFalse(out.replaceAll("<(?:https?://|mailto:)[^|<>\\s]+(?:\\|[^<>]*)?>", "").contains("<"),
                "a raw '<' that is not a web link in " + out + " (from " + in + ")");
    }

    @Test
    void plainTextIsUnchanged() {
        String text = "Nothing to convert here.\n\nSecond paragraph, with a comma; and 3 * 4 = 12.";
        assertEquals(text, format(text));
    }
}
