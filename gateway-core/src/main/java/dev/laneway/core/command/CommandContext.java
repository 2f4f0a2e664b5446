package dev.laneway.core.command;

import dev.laneway.core.SessionKey;

/**
 * What a command may know and do.
 *
 * @param session    the session the message belongs to
 * @param authorized whether the sender may change settings here (docs/behaviour.md §6.7: the channel's
 *                   {@code commands.allowFrom}; when unset, anyone in a DM and group admins in groups)
 * @param control    the gateway operations commands use
 */
public record CommandContext(SessionKey session, boolean authorized, GatewayControl control) {
}
