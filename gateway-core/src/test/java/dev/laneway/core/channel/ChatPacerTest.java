package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatPacerTest {

    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    private final ChatPacer pacer = new ChatPacer(
            new ChatPacer.Limits(Duration.ofSeconds(1), 3, 20, Duration.ofMinutes(1)));

    @Test
    void chat_allowsAShortBurst_thenAboutOneMessagePerSecond() {
        List<Duration> waits = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            waits.add(pacer.reserve("101", false, T0));
        }
        assertEquals(List.of(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(2),
                Duration.ofSeconds(3)), waits);
    }

    @Test
    void chat_recoversItsBurstAfterAQuietSpell() {
        for (int i = 0; i < 3; i++) {
            pacer.reserve("101", false, T0);
        }
        Instant later = T0.plusSeconds(10);
        assertEquals(Duration.ZERO, pacer.reserve("101", false, later));
        assertEquals(Duration.ZERO, pacer.reserve("101", false, later));
    }

    @Test
    void windowedChat_sendsAtMostWindowMaxPerWindow() {
        Instant now = T0;
        List<Instant> sentAt = new ArrayList<>();
        for (int i = 0; i < 45; i++) {
            now = now.plus(pacer.reserve("-100", true, now));   // the outbox waits, then sends
            sentAt.add(now);
        }
        for (int i = 20; i < sentAt.size(); i++) {
            assertTrue(!sentAt.get(i).isBefore(sentAt.get(i - 20).plusSeconds(60)),
                    "message " + i + " came within a minute of message " + (i - 20));
        }
        assertEquals(T0.plusSeconds(60), sentAt.get(20), "the 21st waits for the first to leave the window");
    }

    @Test
    void oneChat_neverDelaysAnother() {
        for (int i = 0; i < 10; i++) {
            pacer.reserve("101", false, T0);
        }
        assertEquals(Duration.ZERO, pacer.reserve("102", false, T0));
    }

    @Test
    void manyChats_doNotGrowTheStateForever() {
        for (int i = 0; i < 25_000; i++) {
            pacer.reserve(Integer.toString(i), false, T0.plusSeconds(i));
        }
        assertEquals(Duration.ZERO, pacer.reserve("0", false, T0.plusSeconds(30_000)));
    }

    @Test
    void perChat_hasNoWindow() {
        ChatPacer slack = new ChatPacer(ChatPacer.Limits.perChat(Duration.ofSeconds(1), 1));
        assertEquals(Duration.ZERO, slack.reserve("C1", false, T0));
        assertEquals(Duration.ofSeconds(1), slack.reserve("C1", false, T0));
    }

    @Test
    void limits_areValidated() {
        assertThrows(IllegalArgumentException.class, () -> ChatPacer.Limits.perChat(Duration.ZERO, 1));
        assertThrows(IllegalArgumentException.class, () -> ChatPacer.Limits.perChat(Duration.ofSeconds(1), 0));
    }
}
