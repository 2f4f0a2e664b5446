package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static dev.laneway.channels.discord.DiscordJson.BOT_ID;
import static dev.laneway.channels.discord.DiscordJson.GUILD_2;
import static dev.laneway.channels.discord.DiscordJson.GUILD_2_CHANNEL;
import static dev.laneway.channels.discord.DiscordJson.GUILD_ID;
import static dev.laneway.channels.discord.DiscordJson.TEXT_CHANNEL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.testing.Await;
import java.util.List;
import net.dv8tion.jda.api.utils.data.DataArray;
import org.junit.jupiter.api.Test;

/**
 * {@code channels.discord.shards} on one instance (docs/behaviour.md §17, "Ingress"): the channel
 * connects every shard, each IDENTIFY carrying its {@code [shard_id, num_shards]}, takes messages
 * from each shard's servers and answers in either (each from the shard whose cache has the channel).
 */
class DiscordShardsTest {

    private static final String MENTION = "<@" + BOT_ID + "> ";

    @Test
    void twoShards_areBothIdentified_andEachShardsServerIsTakenAndAnswered() throws Exception {
        try (DiscordRig rig = DiscordRig.options().shards(2).start()) {
            Await.until("both shards to identify", () -> rig.ws.received(2).size() == 2);
            List<List<Integer>> identified = rig.ws.received(2).stream()
                    .map(frame -> shardOf(frame.getObject("d").getArray("shard"))).sorted((a, b) -> a.get(0) - b.get(0))
                    .toList();
            assertEquals(List.of(List.of(0, 2), List.of(1, 2)), identified);
            Await.until("both shards to be connected", () -> rig.ws.liveShards().equals(List.of(0, 1))
                    && rig.channel.connected());
            assertEquals(List.of(0, 1), rig.channel.shardsHere());
            assertEquals(1, rig.rest.requests(r -> r.is("PUT", "applications/" + DiscordJson.APP_ID + "/commands"))
                    .size(), "the slash commands are registered once, by shard 0");

            rig.ws.dispatchToShard(0, "MESSAGE_CREATE", DiscordJson.message("7801", TEXT_CHANNEL, GUILD_ID, ALICE,
                    MENTION + "on shard 0", List.of(BOT_ID), null));
            rig.ws.dispatchToShard(1, "MESSAGE_CREATE", DiscordJson.message("7802", GUILD_2_CHANNEL, GUILD_2, ALICE,
                    MENTION + "on shard 1", List.of(BOT_ID), null));
            assertEquals("on shard 0", rig.inbound("7801").text());
            assertEquals("on shard 1", rig.inbound("7802").text());

            Await.until("both runs", () -> rig.agent.runs().size() == 2);
            rig.agent.run(0).complete("answer one");
            rig.agent.run(1).complete("answer two");
            Await.until("an answer in each server", () -> rig.rest.messagesTo(TEXT_CHANNEL).size() == 1
                    && rig.rest.messagesTo(GUILD_2_CHANNEL).size() == 1);
        }
    }

    private static List<Integer> shardOf(DataArray shard) {
        return List.of(shard.getInt(0), shard.getInt(1));
    }
}
