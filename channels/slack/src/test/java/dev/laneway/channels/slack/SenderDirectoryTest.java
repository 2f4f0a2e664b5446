package dev.laneway.channels.slack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.slack.api.model.User;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SenderDirectoryTest {

    private final ManualTime time = new ManualTime();
    private final List<String> fetched = new ArrayList<>();
    private boolean failing;

    private final SenderDirectory directory = new SenderDirectory(id -> {
        fetched.add(id);
        if (failing) {
            throw new IllegalStateException("users.info for " + id + " failed: missing_scope");
        }
        User user = new User();
        user.setId(id);
        user.setName(id.toLowerCase());
        user.setRealName("Real " + id);
        user.setAdmin(id.startsWith("UA"));
        user.setOwner(id.startsWith("UO"));
        return user;
    }, time, Duration.ofMinutes(5), Duration.ofSeconds(30));

    @Test
    void workspaceAdminsAndOwners_countAsAdmins() {
        assertTrue(directory.sender("UADMIN").admin());
        assertTrue(directory.sender("UOWNER").admin());
        assertFalse(directory.sender("UMEMBER").admin());
        assertEquals("Real UMEMBER", directory.sender("UMEMBER").name());
    }

    @Test
    void answersAreCachedBriefly() {
        directory.sender("U1");
        time.advance(Duration.ofMinutes(4));
        directory.sender("U1");
        assertEquals(List.of("U1"), fetched);
        time.advance(Duration.ofMinutes(2));
        directory.sender("U1");
        assertEquals(List.of("U1", "U1"), fetched);
    }

    @Test
    void aFailedLookup_isANonAdminWithoutName_retriedAfterTheShortFailureTtl() {
        failing = true;
        SenderDirectory.Sender sender = directory.sender("UADMIN");
        assertFalse(sender.admin());
        assertNull(sender.name());
        directory.sender("UADMIN");
        assertEquals(1, fetched.size());
        failing = false;
        time.advance(Duration.ofSeconds(31));
        assertTrue(directory.sender("UADMIN").admin());
    }
}
