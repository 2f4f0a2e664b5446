package dev.laneway.channels.telegram;

import java.util.Objects;

/** Who the bot is, from {@code getMe}: its user id and its {@code @username} (without the {@code @}). */
record BotIdentity(long id, String username) {

    BotIdentity {
        Objects.requireNonNull(username, "username");
    }

    /** Whether {@code name} (with or without a leading {@code @}) is this bot's username, ignoring case. */
    boolean isNamed(String name) {
        String bare = name.startsWith("@") ? name.substring(1) : name;
        return bare.equalsIgnoreCase(username);
    }
}
