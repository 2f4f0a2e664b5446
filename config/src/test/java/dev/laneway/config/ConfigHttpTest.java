package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code gateway.http}: the admin token, and the rule that an ops endpoint bound beyond loopback
 * needs one (docs/configuration.md §4).
 */
class ConfigHttpTest {

    private static final String TOKEN = "0123456789abcdef0123";

    @Test
    void noTokenByDefault_andLoopbackNeedsNone() throws Exception {
        assertTrue(parse("").gateway().http().adminToken().isEmpty());
        for (String bind : new String[] {"127.0.0.1", "127.0.1.1", "localhost", "\"::1\"", "\"[::1]\""}) {
            assertEquals(Secret.NONE, parse("gateway: { http: { bind: " + bind + " } }").gateway().http().adminToken(), bind);
        }
    }

    @Test
    void aBindBeyondLoopback_withoutAToken_isRefused_namingTheAddressAndTheFix() {
        assertEquals("laneway.yaml: gateway.http.bind: is 0.0.0.0, not a loopback address: the ops endpoint would be"
                + " reachable from other machines, so it needs gateway.http.adminToken (e.g. adminToken:"
                + " ${LANEWAY_ADMIN_TOKEN}, at least 16 characters); set it, or bind 127.0.0.1 (line 3, column 11)",
                onlyProblem("""
                gateway:
                  http:
                    bind: 0.0.0.0
                """));
        assertTrue(onlyProblem("gateway: { http: { bind: ops.internal } }").contains("is ops.internal, not a loopback"));
        assertTrue(onlyProblem("gateway: { http: { bind: \"::\" } }").contains("is ::, not a loopback"));
    }

    @Test
    void aBindBeyondLoopback_withAToken_orWithTheEndpointDisabled_isAccepted() throws Exception {
        GatewayConfig.Http http = parse("gateway: { http: { bind: 0.0.0.0, adminToken: \"${T}\" } }", Map.of("T", TOKEN))
                .gateway().http();
        assertEquals(TOKEN, http.adminToken().value());
        assertEquals("0.0.0.0", http.bind());
        assertFalse(parse("gateway: { http: { enabled: false, bind: 0.0.0.0 } }").gateway().http().enabled());
    }

    @Test
    void aShortOrUnprintableToken_isRefused_withoutShowingIt() {
        String shortOne = onlyProblem("gateway: { http: { adminToken: short-secret } }");
        assertTrue(shortOne.contains("gateway.http.adminToken: must be at least 16 characters long (it has 12)"), shortOne);
        assertFalse(shortOne.contains("short-secret"), shortOne);
        String spaced = onlyProblem("gateway: { http: { adminToken: \"with a space in it 123\" } }");
        assertTrue(spaced.contains("gateway.http.adminToken: must be printable ASCII without spaces"), spaced);
        assertFalse(spaced.contains("with a space"), spaced);
    }

    @Test
    void configShow_masksTheToken() throws Exception {
        String yaml = ConfigPrinter.effectiveYaml(parse("gateway: { http: { adminToken: " + TOKEN + " } }"));
        assertFalse(yaml.contains(TOKEN), yaml);
        assertTrue(yaml.contains("adminToken: '***'") || yaml.contains("adminToken: \"***\""), yaml);
    }

    @Test
    void anUnknownKey_suggestsAdminToken() {
        assertTrue(onlyProblem("gateway: { http: { adminTokn: " + TOKEN + " } }").contains("adminToken"));
    }
}
