package dev.laneway.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.CommandContext;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.QueuedMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code /queue status} and {@code /queue cancel} (docs/behaviour.md §6.9). */
class QueueStatusCancelTest {

    private static final SessionKey SESSION = SessionKey.of("telegram:group:-100");

    private final RecordingControl control = new RecordingControl();
    private final ChatCommands commands = new ChatCommands();

    private String send(String text, boolean authorized) {
        InboundMessage message = InboundMessage.builder("telegram").chatId("-100").senderId("42").direct(false)
                .text(text).build();
        return assertInstanceOf(CommandDecision.Reply.class,
                commands.handle(message, new CommandContext(SESSION, authorized, control))).text();
    }

    @Test
    void parser_knowsStatusAndCancel_aloneOnly_elseTheyAreUnknownModesAsBefore() {
        assertInstanceOf(QueueCommand.Status.class, QueueCommandParser.parse("status"));
        assertEquals(new QueueCommand.Cancel(false), QueueCommandParser.parse("Cancel"));
        assertEquals(new QueueCommand.Cancel(true), QueueCommandParser.parse("cancel all"));
        assertInstanceOf(QueueCommand.Invalid.class, QueueCommandParser.parse("status now"));
        assertInstanceOf(QueueCommand.Invalid.class, QueueCommandParser.parse("cancel everything"));
    }

    @Test
    void status_listsTheSendersMessagesWithTheirPlaces_previewsCutAt40() {
        control.queued = List.of(new QueueMessageFixture().one(), new QueuedMessage(4, "x".repeat(50)));
        assertEquals("ℹ️ You have 2 message(s) waiting: #1 \"hello there\", #4 \"" + "x".repeat(40) + "…\".",
                send("/queue status", false));
        assertEquals(List.of("queued(telegram:group:-100, 42, false)"), control.calls);
        control.queued = List.of();
        assertEquals("ℹ️ You have no messages waiting in the queue.", send("/queue status", false));
    }

    @Test
    void cancel_ownMessagesNeedNoAuthority_everyonesDoes() {
        control.cancelled = 3;
        assertEquals("⚙️ Cancelled 3 queued message(s) of yours; they will not be answered.", send("/queue cancel", false));
        assertEquals("⛔ You are not allowed to cancel other people's messages here.", send("/queue cancel all", false));
        assertEquals(List.of("cancelQueued(telegram:group:-100, 42, false)"), control.calls, "nothing cancelled");
        assertEquals("⚙️ Cancelled 3 queued message(s) in this conversation; they will not be answered.",
                send("/queue cancel all", true));
        control.cancelled = 0;
        assertEquals("ℹ️ You have no messages waiting in the queue.", send("/queue cancel", false));
    }

    private static final class QueueMessageFixture {
        QueuedMessage one() {
            return new QueuedMessage(1, "  hello\n there ");
        }
    }
}
