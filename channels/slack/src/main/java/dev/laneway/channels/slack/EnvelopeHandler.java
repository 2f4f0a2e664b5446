package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.slack.api.socket_mode.request.EventsApiEnvelope;
import com.slack.api.socket_mode.request.InteractiveEnvelope;
import com.slack.api.socket_mode.request.SlashCommandsEnvelope;
import dev.laneway.core.channel.ExpiringKeys;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Socket Mode listeners. Runs on the SDK's message-processor thread and does only what must
 * happen there: acknowledge the envelope at once (Slack retries anything not acknowledged within
 * three seconds), drop a retry of an event already seen (same {@code event_id}), and hand the
 * payload to the inbound worker, which converts it and calls the gateway. Every listener is
 * guarded, so one malformed envelope never stops the SDK's processor.
 *
 * <p>Concurrency: holds no mutable state of its own; {@code seen} is thread-safe, and the inbound
 * executor is serial, so payloads are converted in the order Slack sent them (and each
 * conversation's messages reach the gateway in that order: see {@link InboundProcessor}).
 */
final class EnvelopeHandler {

    private static final Logger log = LoggerFactory.getLogger(EnvelopeHandler.class);

    private final Consumer<String> ack;
    private final ExpiringKeys seen;
    private final Executor inbound;
    private final InboundProcessor processor;
    private final Runnable onHello;

    /**
     * @param ack     sends {@code {"envelope_id": ...}} on the socket
     * @param seen    event ids and envelope ids already handed over
     * @param inbound the serial worker that converts payloads and calls the gateway
     * @param onHello called when Slack says hello on a new connection
     */
    EnvelopeHandler(Consumer<String> ack, ExpiringKeys seen, Executor inbound, InboundProcessor processor,
                    Runnable onHello) {
        this.ack = ack;
        this.seen = seen;
        this.inbound = inbound;
        this.processor = processor;
        this.onHello = onHello;
    }

    void onEventsApi(EventsApiEnvelope envelope) {
        guarded("events_api", () -> {
            acknowledge(envelope.getEnvelopeId());
            JsonObject payload = Json.asObject(envelope.getPayload());
            String eventId = Json.str(payload, "event_id");
            String key = eventId != null ? "event:" + eventId : "envelope:" + envelope.getEnvelopeId();
            if (!seen.add(key)) {
                log.debug("Slack redelivered event {} (retry {}); already handled", eventId, envelope.getRetryAttempt());
                return;
            }
            inbound.execute(() -> processor.event(payload));
        });
    }

    void onSlashCommand(SlashCommandsEnvelope envelope) {
        guarded("slash_commands", () -> {
            String envelopeId = envelope.getEnvelopeId();
            acknowledge(envelopeId);
            if (envelopeId != null && !seen.add("envelope:" + envelopeId)) {
                return;
            }
            JsonObject payload = Json.asObject(envelope.getPayload());
            inbound.execute(() -> processor.slashCommand(payload, envelopeId));
        });
    }

    /** Interactive payloads (buttons, shortcuts) are not used; acknowledged so Slack stops retrying. */
    void onInteractive(InteractiveEnvelope envelope) {
        guarded("interactive", () -> acknowledge(envelope.getEnvelopeId()));
    }

    /** Every raw message (after the SDK handled {@code disconnect}); watches for {@code hello}. */
    void onRawMessage(String message) {
        guarded("message", () -> {
            if (message.contains("\"hello\"")
                    && "hello".equals(Json.str(Json.asObject(JsonParser.parseString(message)), "type"))) {
                onHello.run();
            }
        });
    }

    private void acknowledge(String envelopeId) {
        if (envelopeId == null) {
            return;
        }
        try {
            ack.accept(envelopeId);
        } catch (RuntimeException e) {
            // the socket closed under us: Slack will redeliver, and the event id dedupe catches it
            log.warn("could not acknowledge Slack envelope {}: {}", envelopeId, e.toString());
        }
    }

    private static void guarded(String what, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | LinkageError e) {
            log.warn("Slack {} envelope could not be handled: {}", what, e.toString(), e);
        }
    }
}
