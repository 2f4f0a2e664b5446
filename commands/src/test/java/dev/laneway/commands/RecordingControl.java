package dev.laneway.commands;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.GatewayControl;
import dev.laneway.core.command.SessionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A {@link GatewayControl} that answers from fields and records every call, for tests. */
final class RecordingControl implements GatewayControl {

    /** Every call as {@code method(session[, argument])}, in order. */
    final List<String> calls = new ArrayList<>();
    /** Every override saved, in order. */
    final List<QueueOverride> saved = new ArrayList<>();

    QueueSettings settings = QueueSettings.DEFAULTS;
    /** What {@link #capPerSender} answers: half the cap when null, as the gateway's default. */
    Integer capPerSender;
    QueueOverride stored;
    int clearedOnStop;
    SessionStatus status = new SessionStatus(QueueSettings.DEFAULTS, 0, null, List.of());

    @Override
    public QueueSettings effectiveSettings(SessionKey session, String channel) {
        calls.add("effectiveSettings(" + session + ", " + channel + ")");
        return settings;
    }

    @Override
    public int capPerSender(int cap) {
        int part = capPerSender == null ? cap - cap / 2 : capPerSender;
        return part < cap ? part : 0;
    }

    @Override
    public Optional<QueueOverride> sessionOverride(SessionKey session) {
        calls.add("sessionOverride(" + session + ")");
        return Optional.ofNullable(stored);
    }

    @Override
    public void setSessionOverride(SessionKey session, QueueOverride override) {
        calls.add("setSessionOverride(" + session + ")");
        saved.add(override);
        stored = override.isEmpty() ? null : override;
    }

    /** What {@link #queued} answers. */
    List<dev.laneway.core.command.QueuedMessage> queued = List.of();
    /** What {@link #cancelQueued} answers. */
    int cancelled;

    @Override
    public List<dev.laneway.core.command.QueuedMessage> queued(SessionKey session,
                                                               dev.laneway.core.InboundMessage sender, boolean everyone) {
        calls.add("queued(" + session + ", " + sender.senderId() + ", " + everyone + ")");
        return queued;
    }

    @Override
    public int cancelQueued(SessionKey session, dev.laneway.core.InboundMessage sender, boolean everyone) {
        calls.add("cancelQueued(" + session + ", " + sender.senderId() + ", " + everyone + ")");
        return cancelled;
    }

    @Override
    public int stop(SessionKey session) {
        calls.add("stop(" + session + ")");
        return clearedOnStop;
    }

    @Override
    public void newConversation(SessionKey session) {
        calls.add("newConversation(" + session + ")");
    }

    @Override
    public SessionStatus status(SessionKey session, String channel) {
        calls.add("status(" + session + ", " + channel + ")");
        return status;
    }

    /** The calls that change something. */
    List<String> changes() {
        return calls.stream().filter(call -> !call.startsWith("effectiveSettings") && !call.startsWith("sessionOverride")
                && !call.startsWith("status")).toList();
    }
}
