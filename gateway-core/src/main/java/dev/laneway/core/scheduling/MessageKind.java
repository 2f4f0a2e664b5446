package dev.laneway.core.scheduling;

import dev.laneway.core.InboundMessage;

/** What kind of message a classification rule matches (docs/behaviour.md §11.1). */
public enum MessageKind {
    /** A direct message to the bot. */
    DM,
    /** A group message that mentions the bot or replies to it. */
    MENTION,
    /** A platform slash command. */
    COMMAND,
    /** A group message that engages the bot without a mention. */
    GROUP,
    /** A scheduled job's prompt. */
    SCHEDULE;

    public static MessageKind of(InboundMessage message) {
        return switch (message.origin()) {
            case SCHEDULE -> SCHEDULE;
            case SLASH_COMMAND -> COMMAND;
            case MESSAGE -> message.direct() ? DM : message.mentionsBot() ? MENTION : GROUP;
        };
    }

    public String configName() {
        return ConfigNames.of(this);
    }

    /** The kind of a configuration name, or null for an unknown one. */
    public static MessageKind byConfigName(String name) {
        return ConfigNames.find(values(), name);
    }
}
