package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.Secret;
import dev.laneway.core.channel.Backoff;
import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.testing.ManualTime;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.telegram.telegrambots.meta.TelegramUrl;

/** Dedupe, admin cache, backoff and settings (per-chat sequencing: gateway-core's KeyedSerialExecutorTest). */
class SmallPartsTest {

    @Test
    void updateIds_areRememberedWithinTheirCapacity() {
        ExpiringKeys seen = new ExpiringKeys(new ManualTime(), Duration.ofHours(24), 3);
        assertTrue(seen.add("1"));
        assertFalse(seen.add("1"));
        assertTrue(seen.add("2"));
        assertTrue(seen.add("3"));
        assertTrue(seen.add("4"));          // 1 falls out
        assertFalse(seen.add("4"));
        assertTrue(seen.add("1"));
        seen.remove("1");
        assertTrue(seen.add("1"), "a forgotten id is taken again");
    }

    @Test
    void adminCache_looksUpOncePerTtl() {
        ManualTime time = new ManualTime();
        AtomicInteger lookups = new AtomicInteger();
        AdminCache cache = new AdminCache(chat -> {
            lookups.incrementAndGet();
            return Set.of(1L);
        }, Duration.ofMinutes(2), Duration.ofSeconds(5), time, Runnable::run);

        assertTrue(cache.isAdmin(-5, 1));
        assertFalse(cache.isAdmin(-5, 2));
        assertEquals(1, lookups.get());
        advance(time, Duration.ofMinutes(2));
        assertTrue(cache.isAdmin(-5, 1));
        assertEquals(2, lookups.get());
    }

    @Test
    void adminCache_aFailedLookup_isNotRememberedAsNoAdmins() {
        ManualTime time = new ManualTime();
        AtomicInteger lookups = new AtomicInteger();
        ArrayDeque<Boolean> failures = new ArrayDeque<>(List.of(true, false));
        AdminCache cache = new AdminCache(chat -> {
            lookups.incrementAndGet();
            if (failures.removeFirst()) {
                throw new IOException("Too Many Requests: retry after 3");
            }
            return Set.of(1L);
        }, Duration.ofMinutes(2), Duration.ofSeconds(5), time, Runnable::run);

        assertFalse(cache.isAdmin(-5, 1), "no answer: a member for this command");
        assertTrue(cache.isAdmin(-5, 1), "the next command asks again, at once");
        assertEquals(2, lookups.get());
    }

    @Test
    void adminCache_aLookupSlowerThanItsBound_doesNotHoldTheCommand_andItsAnswerServesTheNextOne() {
        ManualTime time = new ManualTime();
        List<Runnable> pending = new ArrayList<>();              // lookups run when the test says
        AdminCache cache = new AdminCache(chat -> Set.of(1L), Duration.ofMinutes(2), Duration.ofNanos(1), time,
                pending::add);

        assertFalse(cache.isAdmin(-5, 1), "not known within the bound: a member for now");
        assertFalse(cache.isAdmin(-5, 1), "still running");
        assertEquals(1, pending.size(), "one lookup in flight per chat, not one per command");
        pending.get(0).run();
        assertTrue(cache.isAdmin(-5, 1), "the late answer is kept");
        assertEquals(1, pending.size());
    }

    @Test
    void adminCache_aFloodWait_isRespected_noLookupUntilItsRetryAfterHasPassed() {
        ManualTime time = new ManualTime();
        AtomicInteger lookups = new AtomicInteger();
        AdminCache cache = new AdminCache(chat -> {
            if (lookups.incrementAndGet() == 1) {
                throw new AdminCache.FloodWait(Duration.ofSeconds(30), null);
            }
            return Set.of(1L);
        }, Duration.ofMinutes(2), Duration.ofSeconds(5), time, Runnable::run);

        assertFalse(cache.isAdmin(-5, 1), "429: not known to be an admin");
        advance(time, Duration.ofSeconds(29));
        assertFalse(cache.isAdmin(-5, 1), "still waiting: counts as a member, and Telegram is not asked");
        assertEquals(1, lookups.get());
        assertTrue(cache.isAdmin(-6, 1), "another chat is not held up");
        advance(time, Duration.ofSeconds(1));
        assertTrue(cache.isAdmin(-5, 1), "the wait is over: asked again");
        assertEquals(3, lookups.get());
    }

    @Test
    void adminCache_aLookupThatEndsJustBeforeACallerClaimsTheChat_isUsed_notRepeated() {
        List<Runnable> beforeNextRead = new ArrayList<>();
        ManualTime time = new ManualTime();
        InstantSource clock = () -> {
            List<Runnable> due = List.copyOf(beforeNextRead);
            beforeNextRead.clear();
            due.forEach(Runnable::run);
            return time.instant();
        };
        AtomicInteger lookups = new AtomicInteger();
        List<Runnable> pending = new ArrayList<>();              // lookups run when the test says
        AdminCache cache = new AdminCache(chat -> {
            lookups.incrementAndGet();
            return Set.of(1L);
        }, Duration.ofMinutes(2), Duration.ofNanos(1), clock, pending::add);

        assertFalse(cache.isAdmin(-5, 1), "first lookup still running");
        pending.get(0).run();
        advance(time, Duration.ofMinutes(2));                    // the list expired
        assertFalse(cache.isAdmin(-5, 1), "second lookup still running");
        assertEquals(2, pending.size());
        // the second lookup ends right after the next caller saw the expired list, before it claims the chat
        beforeNextRead.add(pending.get(1));
        assertTrue(cache.isAdmin(-5, 1), "the answer that just arrived is used");
        assertEquals(2, pending.size(), "no third lookup for an answer already in the cache");
        assertEquals(2, lookups.get());
    }

    private static void advance(ManualTime time, Duration by) {
        time.advance(by);
    }

    @Test
    void pollingBackOff_doublesUpToItsCap_andResets() {
        PollingBackOff backOff = new PollingBackOff(
                new Backoff(Duration.ofMillis(100), Duration.ofMillis(500), () -> 0.0));
        assertTrue(backOff.healthy());
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            waits.add(backOff.nextBackOffMillis());
        }
        assertEquals(List.of(100L, 200L, 400L, 500L, 500L), waits);
        assertFalse(backOff.healthy());
        backOff.reset();
        assertTrue(backOff.healthy());
        assertEquals(100L, backOff.nextBackOffMillis());
    }

    @Test
    void settings_fromConfig_andTheSdkUrl() {
        ChannelsConfig.Telegram config = new ChannelsConfig.Telegram(true, new Secret("1:abc"),
                URI.create("http://127.0.0.1:8081"), List.of("101"), false);
        TelegramSettings settings = TelegramSettings.fromConfig(config);
        assertFalse(settings.groupsRequireMention());
        assertEquals(Set.of("101"), settings.allowFrom());
        assertEquals(new TelegramUrl("http", "127.0.0.1", 8081, false), settings.telegramUrl());
        assertEquals(new TelegramUrl("https", "api.telegram.org", 443, false),
                TelegramSettings.of(new Secret("1:abc"), TelegramSettings.DEFAULT_API_URL).telegramUrl());
        assertEquals(Duration.ofSeconds(4), settings.typingRefresh());
        assertFalse(settings.toString().contains("1:abc"), "the token is never printed");
    }

    @Test
    void settings_rejectWhatCannotWork_namingTheSetting() {
        Secret token = new Secret("1:abc");
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> TelegramSettings.of(Secret.NONE, TelegramSettings.DEFAULT_API_URL)).getMessage()
                .contains("TELEGRAM_BOT_TOKEN"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> TelegramSettings.of(token, URI.create("https://proxy.example/telegram"))).getMessage()
                .contains("without a path"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> TelegramSettings.of(token, URI.create("ftp://x"))).getMessage().contains("http"));
        assertThrows(IllegalArgumentException.class,
                () -> TelegramSettings.of(token, TelegramSettings.DEFAULT_API_URL).withPollTimeout(Duration.ofMillis(500)));
        assertEquals(443, TelegramSettings.of(token, URI.create("https://api.telegram.org/")).telegramUrl().getPort());
    }
}
