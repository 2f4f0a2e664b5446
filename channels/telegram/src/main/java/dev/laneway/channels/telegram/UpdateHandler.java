package dev.laneway.channels.telegram;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ExpiringKeys;
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

    private final ExpiringKeys seenUpdates; // update ids already taken (they survive a restart of polling)
    private final UpdateConverter converter;
    private final KeyedSerialExecutor chats;
    private final AdminCache admins;
    private final InboundSink sink;
    private final Set<String> allowFrom;
    private final BiConsumer<Route, String> notices;

    UpdateHandler(ExpiringKeys seenUpdates, UpdateConverter converter, KeyedSerialExecutor chats, AdminCache admins,
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
        List<CompletableFuture<Void>> handOvers = new ArrayList<>();
        for (Update update : updates) {
            try {
                handle(update, handOvers);
            } catch (RuntimeException e) {
                log.warn("telegram: update {} could not be handled: {}", update.getUpdateId(), e.toString());
            }
        }
        awaitHandOver(handOvers);
    }

    private static void awaitHandOver(List<CompletableFuture<Void>> handOvers) {
        if (handOvers.isEmpty()) {
            return;
        }
        try {
            CompletableFuture.allOf(handOvers.toArray(CompletableFuture[]::new))
                    .get(HAND_OVER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();      // stopping
        } catch (TimeoutException e) {
            log.warn("telegram: handing a batch to the gateway took over {} s; polling goes on",
                    HAND_OVER_TIMEOUT.toSeconds());
        } catch (ExecutionException e) {
            log.warn("telegram: handing a batch to the gateway failed: {}", e.getCause().toString());
        }
    }

    /** Nothing to release: the channel owns the executors this hands work to. */
    @Override
    public void close() {
    }

    private void handle(Update update, List<CompletableFuture<Void>> handOvers) {
        if (!seenUpdates.add(Integer.toString(update.getUpdateId()))) {
            log.debug("telegram: update {} was already processed; skipped", update.getUpdateId());
            return;
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
                } else {
                    seenUpdates.remove(Integer.toString(update.getUpdateId()));   // stopping: unconfirmed, it comes again after a restart
                }
            }
            case Inbound.Notify notify -> {
                if (allowFrom.isEmpty() || allowFrom.contains(notify.senderId())) {
                    notices.accept(notify.route(), notify.text());
                }
            }
            case Inbound.Skip skip -> log.debug("telegram: update {} skipped: {}", update.getUpdateId(), skip.reason());
        }
    }

    private InboundMessage withAdminStatus(InboundMessage m) {
        boolean admin = admins.isAdmin(Long.parseLong(m.chatId()), Long.parseLong(m.senderId()));
        return m.withSenderIsAdmin(admin);
    }
}
