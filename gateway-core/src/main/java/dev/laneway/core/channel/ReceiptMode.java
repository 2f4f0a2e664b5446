package dev.laneway.core.channel;

import java.util.Locale;

/**
 * How a channel shows receipts ({@code channels.<platform>.receipts}, docs/configuration.md §10;
 * docs/behaviour.md §16.5).
 */
public enum ReceiptMode {
    /** As reactions on the message, replaced as the message moves on, removed when its answer arrives. */
    REACTIONS,
    /** As short text replies, for the receipts that have one (queued, merged, steered). */
    NOTICES,
    /** None. */
    OFF;

    /** The word used in the configuration. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode named {@code word} in the configuration, or null when it names none. */
    public static ReceiptMode ofConfigName(String word) {
        for (ReceiptMode mode : values()) {
            if (mode.configName().equals(word)) {
                return mode;
            }
        }
        return null;
    }
}
