package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.fleet.FleetAllowance;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.scheduling.TenantLimits;
import dev.laneway.core.scheduling.Tenants;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.store.redis.FleetMembers.Instance;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two gateways of one fleet on one real Redis with a tenant's {@code maxRunning} fleet-wide
 * (docs/behaviour.md §11.2, §17): a guild whose run holds its one slot on instance A has its next
 * run, in another of its chats, wait on instance B, while B runs another tenant's message; once A's
 * run ends, B's waiting run starts at B's next retry.
 */
class FleetGatewayCapsTest {

    private static final String GUILD = "guild-1";

    private final RedisServer server = RedisServer.shared();
    private final FleetMembers fleet = FleetMembers.on(server);

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    /** An instance whose guild tenant may run one run at a time across the fleet. */
    private Instance instance() {
        SchedulingSettings scheduling = new SchedulingSettings(SchedulingSettings.Mode.FAIR,
                SchedulingSettings.DEFAULT_AGING_AFTER, SchedulingSettings.DEFAULT_BACKGROUND_SHARE, Map.of(),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of("space:test:" + GUILD, new TenantLimits(1, 1, 0)),
                List.of(), SchedulingSettings.DEFAULT_INITIAL_RUN_TIME);
        return fleet.gateway(server, FleetTiming.DEFAULTS,
                settings -> settings.scheduling(scheduling)
                        .queueDefaults(new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 20, DropPolicy.SUMMARIZE)),
                CommandHandler.NONE, (builder, member) -> builder.fleetCaps(member.caps()));
    }

    /** A mention in chat {@code chat} of the guild. */
    private static void inGuild(Instance to, String chat, String text) {
        to.harness().send(to.harness().message(text).direct(false).mentionsBot(true).chatId(chat).spaceId(GUILD)
                .senderId("member-" + chat));
    }

    @Test
    void aGuildAtItsFleetCapOnA_waitsOnB_whileBRunsAnotherTenant_andStartsAtBsRetryOnceAsRunEnds() {
        Instance a = instance();
        Instance b = instance();

        inGuild(a, "general", "on A");
        ScriptedAgent.ScriptedRun onA = Await.value("A runs the guild's first run",
                () -> a.agent().runs().isEmpty() ? null : a.agent().run(0));
        inGuild(b, "random", "on B");
        b.harness().dm("a DM on B");
        ScriptedAgent.ScriptedRun dm = Await.value("B runs the other tenant's message",
                () -> b.agent().runs().isEmpty() ? null : b.agent().run(0));
        assertTrue(dm.prompt().contains("a DM on B"), "the guild's waiting run does not block B's line: "
                + dm.prompt());
        assertEquals(1, b.agent().runs().size(), "the guild's run on B waits: its tenant runs on A");
        assertEquals(1, b.member().permitsHeld("tenant:space:test:" + GUILD) + a.member().permitsHeld(
                "tenant:space:test:" + GUILD), "one tenant permit in the fleet");

        onA.complete("answer on A");
        Await.until("A gives the tenant's permit back", () -> a.member().permitsHeld("tenant:space:test:" + GUILD) == 0);
        b.harness().advance(FleetAllowance.RETRY_EVERY);
        ScriptedAgent.ScriptedRun guildOnB = Await.value("B runs the guild's run at its retry",
                () -> b.agent().runs().size() == 2 ? b.agent().run(1) : null);
        assertTrue(guildOnB.prompt().contains("on B"), guildOnB.prompt());
        dm.complete("answer to the DM");
        guildOnB.complete("answer on B");
        Await.until("both answered on B", () -> b.harness().channel.texts().size() == 2);
    }
}
