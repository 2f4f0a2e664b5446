package dev.laneway.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsAndModesTest {

    @ParameterizedTest
    @CsvSource({"0,0", "1500,1500", "1.5s,1500", "2m,120000", "1m30s,90000", "250ms,250", "1h,3600000", "2S,2000"})
    void durationsParse(String text, long millis) {
        assertEquals(Optional.of(Duration.ofMillis(millis)), Durations.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fast", "-1", "1x", "s", "1.5.5s", "1m 30s", "99999999999h"})
    void badDurationsAreRejected(String text) {
        assertTrue(Durations.parse(text).isEmpty());
    }

    @ParameterizedTest
    @CsvSource({"steering,STEER", "queue,STEER", "QUEUED,STEER", "follow-up,FOLLOWUP", "followups,FOLLOWUP",
            "coalesce,COLLECT", "steer+backlog,STEER_BACKLOG", "steer_backlog,STEER_BACKLOG", "Abort,INTERRUPT"})
    void modeAliases(String alias, QueueMode mode) {
        assertEquals(Optional.of(mode), QueueMode.parse(alias));
    }

    @ParameterizedTest
    @CsvSource({"oldest,OLD", "newest,NEW", "summary,SUMMARIZE"})
    void dropAliases(String alias, DropPolicy policy) {
        assertEquals(Optional.of(policy), DropPolicy.parse(alias));
    }

    @org.junit.jupiter.api.Test
    void queueSettingsRefuseACapBelowOne_namingTheValue() {
        var error = assertThrows(IllegalArgumentException.class,
                () -> new QueueSettings(QueueMode.COLLECT, Duration.ZERO, 0, DropPolicy.NEW));
        assertEquals("cap must be an integer >= 1, got 0", error.getMessage());
    }

    @org.junit.jupiter.api.Test
    void sessionKeysFollowTheScopes() {
        InboundMessage dm = InboundMessage.builder("telegram").senderId("42").build();
        InboundMessage thread = InboundMessage.builder("discord").direct(false).chatId("c").threadId("t").senderId("7").build();
        assertEquals("telegram:dm:42", SessionScope.DEFAULTS.keyOf(dm).value());
        assertEquals("discord:group:c:t", SessionScope.DEFAULTS.keyOf(thread).value());
        SessionScope other = new SessionScope(SessionScope.DmScope.MAIN, SessionScope.GroupScope.SENDER);
        assertEquals("dm:main", other.keyOf(dm).value());
        assertEquals("discord:group:c:sender:7", other.keyOf(thread).value());
        assertEquals("discord:group:c",
                new SessionScope(SessionScope.DmScope.PER_PEER, SessionScope.GroupScope.CHAT).keyOf(thread).value());
    }

    @org.junit.jupiter.api.Test
    void dmScopeMain_isOneSessionForEveryDm_acrossChannelsAndAccounts() {
        SessionScope main = new SessionScope(SessionScope.DmScope.MAIN, SessionScope.GroupScope.THREAD);
        InboundMessage telegram = InboundMessage.builder("telegram").senderId("42").build();
        InboundMessage discord = InboundMessage.builder("discord").account("second").senderId("7").build();
        assertEquals(main.keyOf(telegram), main.keyOf(discord));
        assertEquals("dm:main", main.keyOf(telegram).value());
    }
}
