package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.InboundMessage;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import net.dv8tion.jda.api.utils.data.DataArray;
import org.junit.jupiter.api.Test;

/** One bad event is logged and the listener carries on with the next. */
class DiscordListenerRobustnessTest {

    @Test
    void aFailureWhileHandlingOneEvent_doesNotStopTheNext() throws Exception {
        AtomicBoolean failed = new AtomicBoolean();
        try (DiscordRig rig = DiscordRig.options().sinkWrapper(next -> message -> {
            if (failed.compareAndSet(false, true)) {
                throw new IllegalStateException("boom on the first event");
            }
            next.accept(message);
        }).start()) {
            rig.dm("7701", ALICE, "this one fails");
            rig.slashCommand(DiscordJson.snowflakeNow(), DiscordJson.TEXT_CHANNEL, ALICE, "weather", DataArray.empty());
            rig.dm("7702", ALICE, "this one arrives");

            rig.inbound("7702");
            assertEquals(List.of("7702"), rig.inbound().stream().map(InboundMessage::platformMessageId).toList(),
                    "the failing message and the unknown command never reach the gateway");
        }
    }
}
