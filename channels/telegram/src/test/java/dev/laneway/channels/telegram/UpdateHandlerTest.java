package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.channel.KeyedSerialExecutor;
import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.telegram.telegrambots.meta.api.objects.Update;

/** The polling thread's hand-off, with a direct executor: dedupe, admin status, notices, containment. */
class UpdateHandlerTest {

    private static final BotIdentity BOT = new BotIdentity(Tg.BOT.id(), Tg.BOT.username());
    private final List<InboundMessage> accepted = new ArrayList<>();
    private final List<String> notices = new ArrayList<>();
    private final AtomicInteger adminLookups = new AtomicInteger();
    private final AdminCache admins = new AdminCache(chatId -> {
        adminLookups.incrementAndGet();
        return Set.of(Tg.ANN.id());
    }, Duration.ofMinutes(2), Duration.ofSeconds(5), InstantSource.fixed(Instant.EPOCH), Runnable::run);

    private UpdateHandler handler(Set<String> allowFrom) {
        return new UpdateHandler(seenUpdates(), new UpdateConverter(BOT, true, InstantSource.fixed(Instant.EPOCH)),
                new KeyedSerialExecutor("telegram", Runnable::run), admins, accepted::add, allowFrom,
                (Route route, String text) -> notices.add(route.chatId() + ": " + text));
    }

    private static Update dm(int updateId, Tg.Person from, String text) {
        return Tg.sdkUpdate(updateId, Tg.message(updateId, Tg.privateChat(from), from, text));
    }

    private static Update group(int updateId, Tg.Person from, String text) {
        return Tg.sdkUpdate(updateId, Tg.message(updateId, Tg.groupChat(Tg.GROUP, "Team", false), from, text));
    }

    private static ExpiringKeys seenUpdates() {
        return new ExpiringKeys(InstantSource.fixed(Instant.EPOCH), Duration.ofHours(24), 100);
    }

    @Test
    void anUpdateSeenBefore_isNotHandedOverAgain() {
        UpdateHandler handler = handler(Set.of());
        handler.consume(List.of(dm(1, Tg.ANN, "a"), dm(2, Tg.ANN, "b")));
        handler.consume(List.of(dm(2, Tg.ANN, "b"), dm(3, Tg.ANN, "c"), dm(1, Tg.ANN, "a")));
        assertEquals(List.of("a", "b", "c"), accepted.stream().map(InboundMessage::text).toList());
    }

    /**
     * docs/decisions.md D184: an id another live instance claimed but has not handed over is not a
     * repeat. The webhook refuses it (503: Telegram sends it again until it is journaled or its
     * claimant is gone); polling, whose batch is confirmed whatever the handler says, hands it over.
     */
    @Test
    void anIdClaimedButNotHandedOverElsewhere_isRefusedByTheWebhook_andHandedOverByPolling() {
        dev.laneway.core.channel.SeenIds pending = new dev.laneway.core.channel.SeenIds() {
            @Override
            public boolean add(String id) {
                return false;
            }

            @Override
            public Claim claim(String id) {
                return Claim.PENDING;
            }

            @Override
            public boolean remove(String id) {
                return false;
            }
        };
        UpdateHandler handler = new UpdateHandler(pending, new UpdateConverter(BOT, true,
                InstantSource.fixed(Instant.EPOCH)), new KeyedSerialExecutor("telegram", Runnable::run), admins,
                accepted::add, Set.of(), (route, text) -> { });
        assertFalse(handler.handOver(List.of(dm(7, Tg.ANN, "in flight elsewhere"))), "webhook: 503");
        assertEquals(List.of(), accepted);
        handler.consume(List.of(dm(7, Tg.ANN, "in flight elsewhere")));
        assertEquals(List.of("in flight elsewhere"), accepted.stream().map(InboundMessage::text).toList(),
                "polling: handed over (the gateway's dedupe drops a double)");
    }

    @Test
    void anUpdateThatCouldNotBeHandedOver_isTakenWhenItComesAgain() {
        ExpiringKeys deduper = seenUpdates();
        UpdateConverter converter = new UpdateConverter(BOT, true, InstantSource.fixed(Instant.EPOCH));
        new UpdateHandler(deduper, converter, new KeyedSerialExecutor("telegram", task -> {
            throw new java.util.concurrent.RejectedExecutionException("stopping");
        }), admins, accepted::add, Set.of(), (route, text) -> { }).consume(List.of(dm(1, Tg.ANN, "late")));
        new UpdateHandler(deduper, converter, new KeyedSerialExecutor("telegram", Runnable::run), admins, accepted::add, Set.of(),
                (route, text) -> { }).consume(List.of(dm(1, Tg.ANN, "late")));
        assertEquals(List.of("late"), accepted.stream().map(InboundMessage::text).toList());
    }

    @Test
    void aBatch_isDoneOnlyWhenTheGatewayHasEveryMessage_soTheNextPollConfirmsNothingUnhanded() throws Exception {
        List<Runnable> drains = new java.util.concurrent.CopyOnWriteArrayList<>();
        UpdateHandler handler = new UpdateHandler(seenUpdates(),
                new UpdateConverter(BOT, true, InstantSource.fixed(Instant.EPOCH)), new KeyedSerialExecutor("telegram", drains::add),
                admins, accepted::add, Set.of(), (route, text) -> { });
        Thread poller = Thread.ofVirtual().start(() -> handler.consume(List.of(dm(1, Tg.ANN, "a"), dm(2, Tg.BOB, "b"))));
        Await.until("both chats queued", () -> drains.size() == 2);
        assertTrue(poller.isAlive(), "the polling thread waits for the hand-over");
        drains.get(0).run();
        assertTrue(poller.isAlive(), "one chat handed over, the other not yet");
        drains.get(1).run();
        poller.join();
        assertEquals(2, accepted.size());
    }

    @Test
    void groupSenders_getTheirAdminStatus_fromOneCachedLookup() {
        UpdateHandler handler = handler(Set.of());
        handler.consume(List.of(group(1, Tg.ANN, "/queue@LanewayBot steer"), group(2, Tg.BOB, "/queue@LanewayBot steer")));
        assertTrue(accepted.get(0).senderIsAdmin());
        assertFalse(accepted.get(1).senderIsAdmin());
        assertEquals(1, adminLookups.get());
    }

    @Test
    void ordinaryGroupMessagesAndStatus_causeNoAdminLookup() {
        UpdateHandler handler = handler(Set.of());
        handler.consume(List.of(group(1, Tg.ANN, "@LanewayBot hello"), group(2, Tg.ANN, "/status"),
                group(3, Tg.BOB, "@LanewayBot and me")));
        assertEquals(3, accepted.size());
        assertEquals(0, adminLookups.get(), "only commands that need authority ask Telegram");
    }

    @Test
    void aSlowAdminLookup_holdsTheBatchNoLongerThanItsBound() {
        List<Runnable> neverRun = new java.util.concurrent.CopyOnWriteArrayList<>();
        AdminCache slow = new AdminCache(chatId -> Set.of(Tg.ANN.id()), Duration.ofMinutes(2), Duration.ofMillis(1),
                InstantSource.fixed(Instant.EPOCH), neverRun::add);
        UpdateHandler handler = new UpdateHandler(seenUpdates(),
                new UpdateConverter(BOT, true, InstantSource.fixed(Instant.EPOCH)), new KeyedSerialExecutor("telegram", Runnable::run),
                slow, accepted::add, Set.of(), (route, text) -> { });
        handler.consume(List.of(group(1, Tg.ANN, "/queue@LanewayBot steer"), dm(2, Tg.BOB, "hi")));
        assertEquals(List.of("/queue steer", "hi"), accepted.stream().map(InboundMessage::text).toList(),
                "the batch was handed over although the lookup never answered");
        assertFalse(accepted.get(0).senderIsAdmin(), "unknown within the bound: a member for this command");
        assertEquals(1, neverRun.size());
    }

    @Test
    void textOnlyNotices_goOnlyToSendersTheBotTalksTo() {
        UpdateHandler handler = handler(Set.of(Long.toString(Tg.ANN.id())));
        handler.consume(List.of(
                Tg.sdkUpdate(1, Tg.sticker(1, Tg.privateChat(Tg.ANN), Tg.ANN)),
                Tg.sdkUpdate(2, Tg.sticker(2, Tg.privateChat(Tg.BOB), Tg.BOB))));
        assertEquals(List.of("101: " + UpdateConverter.TEXT_ONLY), notices);
        assertEquals(List.of(), accepted);
    }

    @Test
    void aFailingSink_neverEscapesIntoTheSdk() {
        UpdateHandler handler = new UpdateHandler(seenUpdates(),
                new UpdateConverter(BOT, true, InstantSource.fixed(Instant.EPOCH)), new KeyedSerialExecutor("telegram", Runnable::run),
                admins, message -> {
                    if (message.text().equals("boom")) {
                        throw new IllegalStateException("sink failed");
                    }
                    accepted.add(message);
                }, Set.of(), (route, text) -> { });
        handler.consume(List.of(dm(1, Tg.ANN, "boom"), dm(2, Tg.ANN, "fine")));
        assertEquals(List.of("fine"), accepted.stream().map(InboundMessage::text).toList());
    }
}
