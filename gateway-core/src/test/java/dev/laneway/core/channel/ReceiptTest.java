package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The receipts' emoji table (docs/behaviour.md §16.5, D202). */
class ReceiptTest {

    /** The Bot API's ReactionTypeEmoji list: the only emoji a bot may react with on Telegram. */
    private static final Set<String> TELEGRAM_ALLOWED = Set.of("👍", "👎", "❤", "🔥", "🥰", "👏", "😁", "🤔", "🤯",
            "😱", "🤬", "😢", "🎉", "🤩", "🤮", "💩", "🙏", "👌", "🕊", "🤡", "🥱", "🥴", "😍", "🐳", "❤‍🔥", "🌚",
            "🌭", "💯", "🤣", "⚡", "🍌", "🏆", "💔", "🤨", "😐", "🍓", "🍾", "💋", "🖕", "😈", "😴", "😭", "🤓",
            "👻", "👨‍💻", "👀", "🎃", "🙈", "😇", "😨", "🤝", "✍", "🤗", "🫡", "🎅", "🎄", "☃", "💅", "🤪", "🗿",
            "🆒", "💘", "🙉", "🦄", "😘", "💊", "🙊", "😎", "👾", "🤷‍♂", "🤷", "🤷‍♀", "😡");

    @Test
    void everyReceipt_isAReactionTelegramAllows_andNoTwoShareOne() {
        for (Receipt receipt : Receipt.values()) {
            assertTrue(TELEGRAM_ALLOWED.contains(receipt.emoji()), receipt + " " + receipt.emoji());
        }
        assertEquals(Receipt.values().length,
                Arrays.stream(Receipt.values()).map(Receipt::emoji).collect(Collectors.toSet()).size());
    }

    @Test
    void onlyDroppedAndShed_areFinal() {
        assertEquals(Set.of(Receipt.DROPPED, Receipt.SHED),
                Arrays.stream(Receipt.values()).filter(Receipt::isFinal).collect(Collectors.toSet()));
    }

    @Test
    void theModes_readTheirConfigWords() {
        assertEquals(ReceiptMode.REACTIONS, ReceiptMode.ofConfigName("reactions"));
        assertEquals(ReceiptMode.NOTICES, ReceiptMode.ofConfigName("notices"));
        assertEquals(ReceiptMode.OFF, ReceiptMode.ofConfigName("off"));
        assertNull(ReceiptMode.ofConfigName("emoji"));
    }
}
