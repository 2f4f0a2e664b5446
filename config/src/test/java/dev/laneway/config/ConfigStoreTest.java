package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static dev.laneway.config.Configs.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.GatewayConfig.Fleet;
import dev.laneway.config.GatewayConfig.Store;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code gateway.store}: SQLite by default, Redis with a URL and a fleet name, every problem located. */
class ConfigStoreTest {

    @Test
    void theDefaultIsSqlite() throws Exception {
        assertEquals(Store.DEFAULTS, parse("").gateway().store());
        assertEquals(Store.Kind.SQLITE, parse("gateway: { store: { kind: sqlite } }").gateway().store().kind());
    }

    @Test
    void redisWithUrlAndFleet() throws Exception {
        Store store = parse("""
                gateway:
                  store: { kind: redis, url: "redis://:pw@cache.internal:6380/2", fleet: support-bot }
                """).gateway().store();
        assertEquals(new Store(Store.Kind.REDIS, URI.create("redis://:pw@cache.internal:6380/2"), "support-bot"), store);
        assertEquals("redis redis://***@cache.internal:6380/2 fleet support-bot", store.toString());
        assertEquals(Store.DEFAULT_URL,
                parse("gateway: { store: { kind: redis, fleet: a } }").gateway().store().url());
        assertEquals(URI.create("rediss://h"),
                parse("gateway: { store: { kind: REDIS, url: \"rediss://h\", fleet: a.b_c-1 } }").gateway().store().url());
    }

    @Test
    void theUrlMayComeFromTheEnvironment_andConfigShowMasksItsPassword() throws Exception {
        LanewayConfig config = parse("gateway: { store: { kind: redis, url: \"${REDIS_URL}\", fleet: f } }",
                Map.of("REDIS_URL", "redis://app:SECRET-9@10.0.0.5:6379"));
        String yaml = ConfigPrinter.effectiveYaml(config);
        assertFalse(yaml.contains("SECRET-9"), yaml);
        assertTrue(yaml.contains("url: redis://***@10.0.0.5:6379"), yaml);
        assertTrue(yaml.contains("kind: redis"), yaml);
        assertTrue(yaml.contains("fleet: f"), yaml);
        assertTrue(ConfigPrinter.effectiveYaml(LanewayConfig.defaults()).contains("store:\n    kind: sqlite"));
    }

    @Test
    void aBadUrl_isReportedWithItsLine_andItsPasswordMasked() {
        assertEquals("laneway.yaml: gateway.store.url: must be a redis:// or rediss:// URL, got"
                + " \"http://***@cache:6379\" (line 4, column 10)", onlyProblem("""
                gateway:
                  store:
                    kind: redis
                    url: "http://u:SECRET@cache:6379"
                    fleet: f
                """));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, url: \"redis://h/db\", fleet: f } }")
                .contains("may only have a database number"));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, url: \"redis://h?timeout=1\", fleet: f } }")
                .contains("must not have a query"));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, url: \"redis:///0\", fleet: f } }")
                .contains("must name a host"));
    }

    @Test
    void redisNeedsAFleetName_ofSafeCharacters() {
        assertEquals("laneway.yaml: gateway.store.fleet: is required with kind: redis: the name of this gateway's"
                + " fleet, in every key it writes (e.g. fleet: support-bot); a Redis holding another fleet's keys is"
                + " refused (line 2, column 3)", onlyProblem("""
                gateway:
                  store: { kind: redis }
                """));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, fleet: \"a{b}\" } }")
                .contains("gateway.store.fleet: must be 1 to 64 letters"));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, fleet: \"\" } }").contains("must not be empty"));
    }

    @Test
    void sqliteTakesNoUrlOrFleet_andUnknownKeysAreReported() {
        assertEquals(2, problems("gateway: { store: { url: \"redis://h\", fleet: f } }").size());
        assertTrue(onlyProblem("gateway: { store: { kind: sqlite, fleet: f } }")
                .contains("gateway.store.fleet: is only used with kind: redis"));
        assertTrue(onlyProblem("gateway: { store: { kind: postgres } }")
                .contains("gateway.store.kind: must be one of sqlite, redis"));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, fleet: f, flet: g } }")
                .contains("gateway.store.flet: unknown key, did you mean \"fleet\"?"));
    }

    @Test
    void fleetTimings_defaultTo15sRenewedEvery5s_andTakeATtlWithItsThirdOrBoth() throws Exception {
        assertEquals(new Fleet(Duration.ofSeconds(15), Duration.ofSeconds(5)),
                parse("gateway: { store: { kind: redis, fleet: f } }").gateway().fleet());
        assertEquals(new Fleet(Duration.ofSeconds(3), Duration.ofSeconds(1)),
                parse("gateway: { store: { kind: redis, fleet: f }, fleet: { leaseTtlMs: 3s } }").gateway().fleet());
        LanewayConfig both = parse("gateway: { store: { kind: redis, fleet: f }, fleet: { leaseTtlMs: 2000,"
                + " renewEveryMs: 500ms } }");
        assertEquals(new Fleet(Duration.ofSeconds(2), Duration.ofMillis(500)), both.gateway().fleet());
        assertTrue(ConfigPrinter.effectiveYaml(both).contains("fleet:\n    leaseTtlMs: 2000\n    renewEveryMs: 500"),
                ConfigPrinter.effectiveYaml(both));
        assertFalse(ConfigPrinter.effectiveYaml(LanewayConfig.defaults()).contains("leaseTtlMs"));
    }

    @Test
    void fleetTimings_outOfRange_areReportedAtTheirKey() {
        assertEquals("laneway.yaml: gateway.fleet.renewEveryMs: must be at least 100ms and at most a third of"
                + " leaseTtlMs (2000ms), so that two renewals can fail before a lease expires, got 1000ms (line 4,"
                + " column 39)", onlyProblem("""
                gateway:
                  store: { kind: redis, fleet: f }
                  fleet:
                    { leaseTtlMs: 2000, renewEveryMs: 1000 }
                """));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, fleet: f }, fleet: { leaseTtlMs: 500 } }")
                .contains("gateway.fleet.leaseTtlMs: must be between 1s and 1h, got 500ms"));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, fleet: f }, fleet: { leaseTtlMs: 2h } }")
                .contains("gateway.fleet.leaseTtlMs: must be between 1s and 1h"));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, fleet: f }, fleet: { renewEveryMs: 50 } }")
                .contains("gateway.fleet.renewEveryMs: must be at least 100ms"));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, fleet: f }, fleet: { leaseTtlMs: soon } }")
                .contains("gateway.fleet.leaseTtlMs: invalid duration"));
        assertTrue(onlyProblem("gateway: { store: { kind: redis, fleet: f }, fleet: { ttl: 2s } }")
                .contains("gateway.fleet.ttl: unknown key"));
    }

    @Test
    void fleetTimings_withSqlite_areRefused() {
        assertTrue(onlyProblem("gateway: { fleet: { leaseTtlMs: 2s } }")
                .contains("gateway.fleet.leaseTtlMs: is only used with gateway.store.kind: redis"));
    }
}
