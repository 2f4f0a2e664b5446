package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
                    capPerSender: 4
                    drop: new
                    notifyDrops: false
                    byChannel: { discord: interrupt, telegram: { cap: 2 } }
                  inbound: { debounceMs: 400, maxWaitMs: 2s, byChannel: { slack: 100 } }
                  steer: { scope: sender }
                  maxAnswerChars: 5000
                commands: { allowFrom: { telegram: [1, 2, 2] } }
                """).toGatewaySettings();
        GatewaySettings expected = GatewaySettings.builder()
                .queueDefaults(new QueueSettings(QueueMode.FOLLOWUP, Duration.ofMillis(750), 9, DropPolicy.NEW))
                .queueByChannel(Map.of("discord", QueueOverride.mode(QueueMode.INTERRUPT),
                        "telegram", new QueueOverride(null, null, 2, null)))
                .queueMaxWait(Duration.ofSeconds(5))
                .queueCapPerSender(4)
                .notifyDrops(false)
                .inboundDebounce(Duration.ofMillis(400))
                .inboundMaxWait(Duration.ofSeconds(2))
                .inboundByChannel(Map.of("slack", Duration.ofMillis(100)))
                .steerScope(SteerScope.SENDER)
                .maxAnswerChars(5000)
                .sessionScope(new SessionScope(SessionScope.DmScope.MAIN, SessionScope.GroupScope.SENDER))
                .mainMaxConcurrent(6)
                .laneCaps(Map.of("subagent", 2, "cron", 1, "fallback", 4, "batch", 5))
                .laneWarnAfter(Duration.ofSeconds(3))
                .maxPendingRuns(50)
                .commandAllowFrom(Map.of("telegram", Set.of("1", "2")))
                .build();
        assertEquals(expected, settings);
    }

    @Test
    void capPerSender_absentIsHalfTheCapRoundedUp_zeroOrTheCapIsNone() throws Exception {
        GatewaySettings absent = parse("messages: { queue: { cap: 7 } }").toGatewaySettings();
        assertNull(absent.queueCapPerSender());
        assertEquals(4, absent.capPerSenderFor(7));
        assertEquals(10, absent.capPerSenderFor(20), "the default cap of 20: 10 per sender");
        assertEquals(0, absent.capPerSenderFor(1), "a cap of 1 has no part");
        assertEquals(1, absent.capPerSenderFor(2));
        assertEquals(0, parse("messages: { queue: { capPerSender: 0 } }").toGatewaySettings().capPerSenderFor(20));
        GatewaySettings three = parse("messages: { queue: { cap: 7, capPerSender: 3 } }").toGatewaySettings();
        assertEquals(3, three.capPerSenderFor(7));
        assertEquals(0, three.capPerSenderFor(3), "a /queue cap at or below the part: no part");
        assertEquals(0, parse("messages: { queue: { cap: 7, capPerSender: 7 } }").toGatewaySettings().capPerSenderFor(7));
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

    @Test
    void maxAnswerChars_defaultsTo20000_isShownByConfigShow_andABadValueIsAClearError() throws Exception {
        assertEquals(20_000, LanewayConfig.defaults().toGatewaySettings().maxAnswerChars());
        assertEquals(12_345, parse("messages: { maxAnswerChars: 12345 }").toGatewaySettings().maxAnswerChars());
        assertTrue(ConfigPrinter.effectiveYaml(LanewayConfig.defaults()).contains("maxAnswerChars: 20000"));
        assertEquals("laneway.yaml: messages.maxAnswerChars: must be an integer >= 100, got 10 (line 2, column 19)",
                onlyProblem("""
                        messages:
                          maxAnswerChars: 10
                        """));
        assertEquals("laneway.yaml: messages.maxAnswerChars: must be an integer >= 100, got \"lots\" (line 1, column 29)",
                onlyProblem("messages: { maxAnswerChars: lots }"));
    }
}
