package dev.laneway.config;

import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionScope;
import dev.laneway.core.SteerScope;
import dev.laneway.core.engine.GatewaySettings;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GatewaySettingsMappingTest {

    @Test
    void toGatewaySettings_mapsEveryConfiguredField() throws Exception {
        GatewaySettings settings = parse("""
                gateway: { admission: { maxPendingRuns: 50 } }
                session: { dmScope: main, groupScope: sender }
                lanes: { warnAfterMs: 3s, subagent: { maxConcurrent: 2 }, batch: { maxConcurrent: 5 } }
                agents: { defaults: { maxConcurrent: 6 } }
                messages:
                  queue:
                    mode: followup
                    debounceMs: 750
                    maxWaitMs: 5s
                    cap: 9
                    drop: new
                    notifyDrops: false
                    byChannel: { discord: interrupt, telegram: { cap: 2 } }
                  inbound: { debounceMs: 400, maxWaitMs: 2s, byChannel: { slack: 100 } }
                  steer: { scope: sender }
                commands: { allowFrom: { telegram: [1, 2, 2] } }
                """).toGatewaySettings();
        GatewaySettings expected = GatewaySettings.builder()
                .queueDefaults(new QueueSettings(QueueMode.FOLLOWUP, Duration.ofMillis(750), 9, DropPolicy.NEW))
                .queueByChannel(Map.of("discord", QueueOverride.mode(QueueMode.INTERRUPT),
                        "telegram", new QueueOverride(null, null, 2, null)))
                .queueMaxWait(Duration.ofSeconds(5))
                .notifyDrops(false)
                .inboundDebounce(Duration.ofMillis(400))
                .inboundMaxWait(Duration.ofSeconds(2))
                .inboundByChannel(Map.of("slack", Duration.ofMillis(100)))
                .steerScope(SteerScope.SENDER)
                .sessionScope(new SessionScope(SessionScope.DmScope.MAIN, SessionScope.GroupScope.SENDER))
                .mainMaxConcurrent(6)
                .laneCaps(Map.of("subagent", 2, "cron", 1, "batch", 5))
                .laneWarnAfter(Duration.ofSeconds(3))
                .maxPendingRuns(50)
                .commandAllowFrom(Map.of("telegram", Set.of("1", "2")))
                .build();
        assertEquals(expected, settings);
    }

    @Test
    void defaults_giveTheEngineDefaults() {
        assertEquals(GatewaySettings.defaults(), LanewayConfig.defaults().toGatewaySettings());
    }

    @Test
    void absentInboundMaxWait_isTenTimesTheEffectiveInboundDebounce_andAnExplicitZeroIsNoBound() throws Exception {
        GatewaySettings absent = parse("messages: { inbound: { debounceMs: 500 } }").toGatewaySettings();
        assertNull(absent.inboundMaxWait());
        assertEquals(Duration.ofSeconds(5), absent.inboundMaxWaitFor(absent.inboundDebounce()));
        GatewaySettings zero = parse("messages: { inbound: { debounceMs: 500, maxWaitMs: 0 } }").toGatewaySettings();
        assertEquals(Duration.ZERO, zero.inboundMaxWaitFor(zero.inboundDebounce()));
    }

    @Test
    void absentMaxWait_staysNullSoTheEngineUsesTenTimesDebounce() throws Exception {
        assertNull(parse("messages: { queue: { debounceMs: 2s } }").toGatewaySettings().queueMaxWait());
    }
}
