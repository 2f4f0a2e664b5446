package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static dev.laneway.config.Configs.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.scheduling.ClassPolicy;
import dev.laneway.core.scheduling.ClassRule;
import dev.laneway.core.scheduling.MessageKind;
import dev.laneway.core.scheduling.OverBudget;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.scheduling.TenantLimits;
import dev.laneway.core.scheduling.Tenants;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code scheduling:} section (docs/configuration.md, "Scheduling"). */
class SchedulingConfigTest {

    @Test
    void withoutTheSectionTheDefaultsApply() throws Exception {
        assertEquals(SchedulingSettings.defaults(), parse("").toGatewaySettings().scheduling());
    }

    @Test
    void everyKeyIsRead() throws Exception {
        SchedulingSettings s = parse("""
                scheduling:
                  mode: fair
                  agingAfter: 90s
                  backgroundShare: 0.25
                  initialRunTime: 8s
                  classes:
                    interactive: { budget: 20s, overBudget: shed }
                    background: { overBudget: degrade }
                  tenants:
                    scope: chat
                    weight: 2
                    maxRunning: 3
                    maxPending: 10
                    overrides:
                      "space:discord:42": { weight: 5 }
                  rules:
                    - { channel: discord, chat: "99", kinds: [group, mention], class: background }
                    - { kinds: [dm], class: normal }
                """).toGatewaySettings().scheduling();
        assertEquals(SchedulingSettings.Mode.FAIR, s.mode());
        assertEquals(Duration.ofSeconds(90), s.agingAfter());
        assertEquals(0.25, s.backgroundShare());
        assertEquals(Duration.ofSeconds(8), s.initialRunTime());
        assertEquals(new ClassPolicy(Duration.ofSeconds(20), OverBudget.SHED), s.policy(PriorityClass.INTERACTIVE));
        assertEquals(SchedulingSettings.defaultClasses().get(PriorityClass.NORMAL), s.policy(PriorityClass.NORMAL));
        assertEquals(new ClassPolicy(Duration.ofMinutes(30), OverBudget.DEGRADE), s.policy(PriorityClass.BACKGROUND));
        assertEquals(Tenants.Scope.CHAT, s.tenantScope());
        assertEquals(new TenantLimits(2, 3, 10), s.tenantDefaults());
        assertEquals(new TenantLimits(5, 3, 10), s.limitsOf("space:discord:42"), "an override starts from the defaults");
        assertEquals(List.of(
                new ClassRule("discord", "99", Set.of(MessageKind.GROUP, MessageKind.MENTION), PriorityClass.BACKGROUND),
                new ClassRule(null, null, Set.of(MessageKind.DM), PriorityClass.NORMAL)), s.rules());
    }

    @Test
    void fifoKeepsOneFlatLine() throws Exception {
        assertEquals(SchedulingSettings.Mode.FIFO, parse("scheduling: { mode: fifo }").toGatewaySettings().scheduling().mode());
    }

    @Test
    void anUnknownModeNamesTheChoices() {
        assertEquals("laneway.yaml: scheduling.mode: must be one of fair, fifo, got \"round-robin\" (line 2, column 9)",
                onlyProblem("""
                        scheduling:
                          mode: round-robin
                        """));
    }

    @Test
    void aWeightOutOfRangeIsAProblem() {
        assertEquals("laneway.yaml: scheduling.tenants.overrides.space:x.weight: must be an integer between 1 and 1000,"
                        + " got 0 (line 4, column 28)",
                onlyProblem("""
                        scheduling:
                          tenants:
                            overrides:
                              "space:x": { weight: 0 }
                        """));
    }

    @Test
    void aBudgetAndAnActionOutOfRangeAreProblems() {
        assertEquals(List.of(
                        "scheduling.classes.normal.budget 3:23 invalid duration \"soon\" (use 1500, 1.5s, 2m or 1m30s)",
                        "scheduling.classes.normal.overBudget 3:41 must be one of defer, shed, degrade, got \"drop\""),
                problems("""
                        scheduling:
                          classes:
                            normal: { budget: soon, overBudget: drop }
                        """).stream().map(p -> p.path() + " " + p.line() + ":" + p.column() + " " + p.message()).toList());
    }

    @Test
    void aShareOutOfRangeIsAProblem() {
        assertEquals("laneway.yaml: scheduling.backgroundShare: must be a number between 0.01 and 1, got 1.5 (line 2, column 20)",
                onlyProblem("""
                        scheduling:
                          backgroundShare: 1.5
                        """));
    }

    @Test
    void aRuleNeedsAClassAndKnownKindsAndChannels() {
        assertEquals(List.of(
                        "scheduling.rules[0].channel 3:18 unknown channel \"irc\", expected one of console, telegram,"
                                + " discord, slack",
                        "scheduling.rules[0].kinds 3:30 unknown kind \"shout\", expected some of dm, mention, command,"
                                + " group, schedule",
                        "scheduling.rules[1] 4:7 needs a class (one of interactive, normal, background)"),
                problems("""
                        scheduling:
                          rules:
                            - { channel: irc, kinds: [shout], class: normal }
                            - { kinds: [dm] }
                        """).stream().map(p -> p.path() + " " + p.line() + ":" + p.column() + " " + p.message()).toList());
    }
}
