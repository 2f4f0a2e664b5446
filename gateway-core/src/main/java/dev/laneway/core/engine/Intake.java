package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;

/**
 * How far one inbound message got through {@link Reception#accept}, so that a failure at any step
 * can still end it in exactly one disposition. Confined to the accepting thread.
 */
final class Intake {

    final InboundMessage message;
    boolean firstSighting;            // passed the dedupe cache: this call owns the message
    Boolean allowed;                  // what the access policy said; null until it answered
    boolean done;                     // a disposition was recorded without a ticket
    Ticket ticket;                    // admitted: holds a slot and a sequence number
    String reason = "internal error"; // the short reason a failure notice gives

    Intake(InboundMessage message) {
        this.message = message;
    }
}
