package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.slack.api.socket_mode.request.EventsApiEnvelope;
import com.slack.api.socket_mode.request.InteractiveEnvelope;
import com.slack.api.socket_mode.request.SlashCommandsEnvelope;
import dev.laneway.core.channel.SeenIds;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Socket Mode listeners. Runs on the SDK's message-processor thread and does only what must
 * happen there: drop a retry of an event already seen (same {@code event_id}; in a fleet, seen by
 * any instance: docs/behaviour.md §17, "Ingress"), and hand the
 * payload to the inbound worker, which converts it and calls the gateway. An event is
 * acknowledged once the gateway is done with its message (stored, answered or ignored; see
 * {@link EnvelopeAcks}): Slack never redelivers an acknowledged envelope, so an ack sent earlier
 * would lose the message to a crash in between. A retry, a slash command and an interactive
 * payload are acknowledged at once. Every listener is guarded, so one malformed envelope never
 * stops the SDK's processor; one that fails is acknowledged, so Slack does not send it again and again.
 *
 * <p>Concurrency: holds no mutable state of its own; {@code seen} is thread-safe, and the inbound
 * executor is serial, so payloads are converted in the order Slack sent them (and each
 * conversation's messages reach the gateway in that order: see {@link InboundProcessor}).
 */
final class EnvelopeHandler {

    private static final Logger log = LoggerFactory.getLogger(EnvelopeHandler.class);

    private final EnvelopeAcks acks;
    private final SeenIds seen;
    private final Executor inbound;
    private final InboundProcessor processor;
    private final Runnable onHello;

    /**
     * @param acks    acknowledges envelopes
     * @param seen    event ids and envelope ids already handed over
     * @param inbound the serial worker that converts payloads and calls the gateway
     * @param onHello called when Slack says hello on a new connection
     */
    EnvelopeHandler(EnvelopeAcks acks, SeenIds seen, Executor inbound, InboundProcessor processor,
                    Runnable onHello) {
        this.acks = acks;
        this.seen = seen;
        this.inbound = inbound;
        this.processor = processor;
        this.onHello = onHello;
    }

    void onEventsApi(EventsApiEnvelope envelope) {
        String envelopeId = envelope.getEnvelopeId();
        EnvelopeAcks.Receipt receipt = acks.open(envelopeId);
        guarded("events_api", receipt, () -> {
            JsonObject payload = Json.asObject(envelope.getPayload());
            String eventId = Json.str(payload, "event_id");
            String key = eventId != null ? "event:" + eventId : "envelope:" + envelopeId;
            if (!firstSight(key)) {
                receipt.confirm();
                log.debug("Slack redelivered event {} (retry {}); already handled", eventId, envelope.getRetryAttempt());
                return;
            }
            EnvelopeAcks.Receipt keep = () -> {
                kept(key);
                receipt.confirm();
            };
            inbound.execute(() -> processor.event(payload, keep));
        });
    }

    void onSlashCommand(SlashCommandsEnvelope envelope) {
        guarded("slash_commands", EnvelopeAcks.Receipt.NONE, () -> {
            String envelopeId = envelope.getEnvelopeId();
            acks.now(envelopeId);   // Slack shows the user an error when a command waits longer than 3 s
            if (envelopeId != null && !firstSight("envelope:" + envelopeId)) {
                return;
            }
            JsonObject payload = Json.asObject(envelope.getPayload());
            inbound.execute(() -> processor.slashCommand(payload, envelopeId));
        });
    }

    /** Interactive payloads (buttons, shortcuts) are not used; acknowledged so Slack stops retrying. */
    void onInteractive(InteractiveEnvelope envelope) {
        guarded("interactive", EnvelopeAcks.Receipt.NONE, () -> acks.now(envelope.getEnvelopeId()));
    }

    /** Every raw message (after the SDK handled {@code disconnect}); watches for {@code hello}. */
    void onRawMessage(String message) {
        guarded("message", EnvelopeAcks.Receipt.NONE, () -> {
            if (message.contains("\"hello\"")
                    && "hello".equals(Json.str(Json.asObject(JsonParser.parseString(message)), "type"))) {
                onHello.run();
            }
        });
    }

    /**
     * True when {@code key} was not seen yet. When the seen ids cannot be asked (Redis out of reach)
     * the event is handed over as new: the envelope is acknowledged by its deadline whatever
     * happens, so refusing it would lose it, while the gateway's own dedupe and its busy reply while
     * the store is out of reach still apply (docs/behaviour.md §17, "Ingress"). For the same reason
     * an event another live instance has claimed but not handed over yet is handed over here too
     * (Slack redelivers only an envelope nobody acknowledged, so its claimant may have died before
     * journaling it): a double is dropped by the gateway's dedupe, a skip would be a loss (D184).
     */
    private boolean firstSight(String key) {
        try {
            return seen.claim(key) != SeenIds.Claim.SEEN;
        } catch (RuntimeException e) {
            log.warn("Slack: could not check {} against the ids already seen ({}); handed over as new", key,
                    e.getMessage());
            return true;
        }
    }

    private void kept(String key) {
        try {
            seen.taken(key);
        } catch (RuntimeException e) {
            log.warn("Slack: {} was handed over, but could not be kept as seen ({})", key, e.getMessage());
        }
    }

    private static void guarded(String what, EnvelopeAcks.Receipt receipt, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | LinkageError e) {
            log.warn("Slack {} envelope could not be handled: {}", what, e.toString(), e);
            receipt.confirm();
        }
    }
}
