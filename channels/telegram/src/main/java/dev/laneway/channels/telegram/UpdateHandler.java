package dev.laneway.channels.telegram;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.channel.SeenIds;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.KeyedSerialExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.telegram.telegrambots.longpolling.interfaces.LongPollingUpdateConsumer;
import org.telegram.telegrambots.meta.api.objects.Update;

/**
 * What the SDK's polling thread calls with each batch of updates. It only dedupes, converts and
 * hands over: each chat's messages go, in order, to a {@link KeyedSerialExecutor} task that, for a group
 * command that needs authority, looks up the sender's admin status (cached, and waited for only
 * briefly: {@link AdminCache}) and calls the gateway's {@link InboundSink}, which returns at once.
 * A "text only" notice goes through the gateway's outbox ({@code notices}), paced and ordered with
 * the chat's other replies. The batch is done when every message is handed over; nothing here
 * waits for a run, and nothing throws back into the SDK (an exception there would end polling for
 * good).
 */
final class UpdateHandler implements LongPollingUpdateConsumer {

    private static final Logger log = LoggerFactory.getLogger(UpdateHandler.class);
    /** Bounds the wait for a batch's hand-over (a backstop: an admin lookup, its only slow step, has its own bound). */
    private static final Duration HAND_OVER_TIMEOUT = Duration.ofSeconds(60);

    private final SeenIds seenUpdates; // update ids already taken (they survive a restart of polling; fleet-wide on Redis)
    private final UpdateConverter converter;
    private final KeyedSerialExecutor chats;
    private final AdminCache admins;
    private final InboundSink sink;
    private final Set<String> allowFrom;
    private final BiConsumer<Route, String> notices;

    UpdateHandler(SeenIds seenUpdates, UpdateConverter converter, KeyedSerialExecutor chats, AdminCache admins,
                  InboundSink sink, Set<String> allowFrom, BiConsumer<Route, String> notices) {
        this.seenUpdates = seenUpdates;
        this.converter = converter;
        this.chats = chats;
        this.admins = admins;
        this.sink = sink;
        this.allowFrom = allowFrom;
        this.notices = notices;
    }

    /**
     * Hands a batch over and waits until the gateway has taken each of its messages (the gateway's
     * {@code accept} returns at once, once the message is recorded), so the SDK's next
     * {@code getUpdates}, which confirms this batch to Telegram, never confirms an update the
     * gateway does not have yet. Different chats are handed over in parallel.
     */
    @Override
    public void consume(List<Update> updates) {
        handOver(updates, true);
    }

    /**
     * As {@link #consume}, saying whether every update was dealt with: handed over (and taken by the
     * gateway), a repeat, or skipped. False when one was not: the channel is stopping, the seen ids
     * could not be asked (Redis unreachable), or the hand-over timed out; the webhook answers that
     * with a 503, so Telegram sends the update again (docs/behaviour.md §17, "Ingress"). An update
     * another live instance has claimed but not handed over yet is not dealt with either: answered
     * 200 as a repeat it would be lost should that instance die before journaling it (D184).
     */
    boolean handOver(List<Update> updates) {
        return handOver(updates, false);
    }

    /**
     * {@code pendingIsNew}: polling, where the batch is confirmed to Telegram whatever this returns,
     * so an update claimed by another instance (a poller that lost its lease mid-hand-over) is
     * handed over again rather than skipped; the gateway's own dedupe drops it if it was journaled.
     */
    private boolean handOver(List<Update> updates, boolean pendingIsNew) {
        List<CompletableFuture<Void>> handOvers = new ArrayList<>();
        List<Update> taken = new ArrayList<>();
        boolean all = true;
        for (Update update : updates) {
            try {
                all &= handle(update, handOvers, taken, pendingIsNew);
            } catch (RuntimeException e) {
                log.warn("telegram: update {} could not be handled: {}", update.getUpdateId(), e.toString());
            }
        }
        boolean handedOver = awaitHandOver(handOvers);
        boolean interrupted = Thread.interrupted();   // stopping: the claims still go to Redis (an interrupt closes its socket)
        for (int i = 0; i < taken.size(); i++) {
            Update update = taken.get(i);
            if (handOvers.get(i).isDone()) {
                keep(update);
            } else {
                // Not handed over (timed out, or interrupted at close): the webhook answers 503 and Telegram
                // sends it again, here or on another instance, within the claim's 2 minutes. The claim must
                // go, or that redelivery is skipped as a repeat and the update lost when this hand-over never
                // completes. Should it complete late after all, the journal's own dedupe drops the double.
                forget(update);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return all && handedOver;
    }

    private void keep(Update update) {
        try {
            seenUpdates.taken(Integer.toString(update.getUpdateId()));
        } catch (RuntimeException e) {
            log.warn("telegram: update {} handed over, but its id could not be kept as seen ({}); the gateway's"
                    + " own dedupe still knows the message", update.getUpdateId(), e.getMessage());
        }
    }

    private static boolean awaitHandOver(List<CompletableFuture<Void>> handOvers) {
        if (handOvers.isEmpty()) {
            return true;
        }
        try {
            CompletableFuture.allOf(handOvers.toArray(CompletableFuture[]::new))
                    .get(HAND_OVER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();      // stopping
        } catch (TimeoutException e) {
            log.warn("telegram: handing a batch to the gateway took over {} s; polling goes on",
                    HAND_OVER_TIMEOUT.toSeconds());
        } catch (ExecutionException e) {
            log.warn("telegram: handing a batch to the gateway failed: {}", e.getCause().toString());
        }
        return false;
    }

    /** Nothing to release: the channel owns the executors this hands work to. */
    @Override
    public void close() {
    }

    /** False when the update was not dealt with (see {@link #handOver}). */
    private boolean handle(Update update, List<CompletableFuture<Void>> handOvers, List<Update> taken,
                           boolean pendingIsNew) {
        SeenIds.Claim claim;
        try {
            claim = seenUpdates.claim(Integer.toString(update.getUpdateId()));
        } catch (RuntimeException e) {
            log.warn("telegram: update {} not taken: its id could not be checked against those already seen ({})",
                    update.getUpdateId(), e.getMessage());
            return false;
        }
        if (claim == SeenIds.Claim.SEEN) {
            log.debug("telegram: update {} was already processed; skipped", update.getUpdateId());
            return true;
        }
        if (claim == SeenIds.Claim.PENDING && !pendingIsNew) {
            log.info("telegram: update {} is being handed over by another instance (or an earlier delivery here);"
                    + " refused so Telegram sends it again until it is journaled", update.getUpdateId());
            return false;
        }
        switch (converter.convert(update)) {
            case Inbound.Deliver deliver -> {
                InboundMessage message = deliver.message();
                CompletableFuture<Void> handedOver = new CompletableFuture<>();
                boolean queued = chats.execute(message.chatId(), () -> {
                    try {
                        sink.accept(deliver.checkAdmin() ? withAdminStatus(message) : message);
                    } finally {
                        handedOver.complete(null);
                    }
                });
                if (queued) {
                    handOvers.add(handedOver);
                    taken.add(update);
                } else {
                    forget(update);   // stopping: unconfirmed, it comes again after a restart
                    return false;
                }
            }
            case Inbound.Notify notify -> {
                if (allowFrom.isEmpty() || allowFrom.contains(notify.senderId())) {
                    notices.accept(notify.route(), notify.text());
                }
            }
            case Inbound.Skip skip -> log.debug("telegram: update {} skipped: {}", update.getUpdateId(), skip.reason());
        }
        return true;
    }

    private void forget(Update update) {
        try {
            seenUpdates.remove(Integer.toString(update.getUpdateId()));
        } catch (RuntimeException e) {
            log.warn("telegram: update {} could not be forgotten ({}); a redelivery within the day is skipped",
                    update.getUpdateId(), e.getMessage());
        }
    }

    private InboundMessage withAdminStatus(InboundMessage m) {
        boolean admin = admins.isAdmin(Long.parseLong(m.chatId()), Long.parseLong(m.senderId()));
        return m.withSenderIsAdmin(admin);
    }
}
