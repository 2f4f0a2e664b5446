package dev.laneway.core.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.InboundMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Tenants#isTenantOf} answers exactly as comparing the ids {@link Tenants#tenantOf} builds
 * would, for every pair of a set of messages that differ in each field a tenant depends on (and ids
 * that differ in length only), in both scopes (a session reuses its last run's tenant only when it
 * holds: docs/decisions.md D218).
 */
class TenantsTest {

    @Test
    void isTenantOf_agreesWithTheTenantIds_forEveryPair_inBothScopes() {
        List<InboundMessage> messages = new ArrayList<>();
        for (String channel : List.of("telegram", "slack")) {
            for (boolean direct : List.of(true, false)) {
                for (InboundMessage.Origin origin : List.of(InboundMessage.Origin.MESSAGE, InboundMessage.Origin.SCHEDULE)) {
                    for (String sender : List.of("u1", "u2", "u12")) {
                        for (String chat : List.of("c1", "c2", "c12")) {
                            for (String space : new String[] {null, "s1", "s2", "s12"}) {
                                messages.add(InboundMessage.builder(channel).direct(direct).origin(origin)
                                        .senderId(sender).chatId(chat).spaceId(space).build());
                            }
                        }
                    }
                }
            }
        }
        int pairs = 0;
        for (Tenants.Scope scope : Tenants.Scope.values()) {
            Tenants tenants = new Tenants(scope);
            for (InboundMessage a : messages) {
                for (InboundMessage b : messages) {
                    assertEquals(tenants.tenantOf(a).equals(tenants.tenantOf(b)), tenants.isTenantOf(tenants.tenantOf(a), b),
                            scope + ": " + a + " and " + b);
                    pairs++;
                }
            }
        }
        assertEquals(2 * messages.size() * messages.size(), pairs);
    }
}
