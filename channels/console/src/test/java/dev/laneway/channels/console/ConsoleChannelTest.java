package dev.laneway.channels.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.testing.ManualTime;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConsoleChannelTest {

    @Test
    void eachNonBlankLine_isADmFromYou_withItsOwnId_andEndOfInputIsReported() throws Exception {
        var input = new ByteArrayInputStream("hello\n\n  second line  \n".getBytes(StandardCharsets.UTF_8));
        List<InboundMessage> received = new CopyOnWriteArrayList<>();
        CountDownLatch ended = new CountDownLatch(1);
        ConsoleChannel channel = new ConsoleChannel(input, new PrintStream(new ByteArrayOutputStream()),
                new ManualTime(), ended::countDown);
        channel.start(received::add);
        assertTrue(ended.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("hello", "second line"), received.stream().map(InboundMessage::text).toList());
        InboundMessage first = received.get(0);
        assertTrue(first.direct());
        assertEquals("console", first.channel());
        assertEquals("you", first.senderId());
        assertTrue(first.platformMessageId().endsWith("-1"), first.platformMessageId());
        assertTrue(received.get(1).platformMessageId().endsWith("-2"));
        assertTrue(!first.platformMessageId().equals(new ConsoleChannel(input, System.out,
                new ManualTime(first.receivedAt().plusSeconds(60)), () -> { }).toMessage("x").platformMessageId()),
                "ids differ between processes started at different times");
    }

    @Test
    void repliesArePrintedWholeOnTheirOwnLines() {
        var bytes = new ByteArrayOutputStream();
        ConsoleChannel channel = new ConsoleChannel(new ByteArrayInputStream(new byte[0]),
                new PrintStream(bytes, true, StandardCharsets.UTF_8), new ManualTime(), () -> { });
        channel.send(channel.toMessage("x").route(), "line one\nline two");
        channel.send(channel.toMessage("y").route(), "⚙️ done");
        assertEquals("line one\nline two\n⚙️ done\n", bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }
}
