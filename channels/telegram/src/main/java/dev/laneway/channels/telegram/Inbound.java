package dev.laneway.channels.telegram;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;

/** What one Telegram update means for the gateway, as decided by {@link UpdateConverter}. */
sealed interface Inbound {

    /**
     * A message for the gateway.
     *
     * @param message    the converted message ({@code senderIsAdmin} is final unless {@code checkAdmin})
     * @param checkAdmin a group command that needs authority, whose sender's admin status must still
     *                   be looked up
     */
    record Deliver(InboundMessage message, boolean checkAdmin) implements Inbound {
    }

    /** A message the bot cannot read (media without caption): tell the sender, once. */
    record Notify(Route route, String senderId, String text) implements Inbound {
    }

    /** Not a message for the bot (edited, another bot's command, not addressed in a group, ...). */
    record Skip(String reason) implements Inbound {
    }
}
