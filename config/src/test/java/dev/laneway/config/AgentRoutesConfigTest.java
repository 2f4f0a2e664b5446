package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static dev.laneway.config.Configs.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.agent.AgentBinding;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** docs/configuration.md §7: {@code agents.bindings}, {@code fallback} and {@code fallbackNotice}, and their errors. */
class AgentRoutesConfigTest {

    private static final String LIST = """
              list:
                main: { provider: echo, fallback: [local, tiny], fallbackNotice: true }
                local: { provider: echo, fallback: [tiny] }
                tiny: { provider: echo }
                support: { provider: echo }
            """;

    @Test
    void bindingsFallbacksAndNotices_areRead() throws Exception {
        AgentsConfig agents = parse("""
                agents:
                  defaults: { agent: main }
                """ + LIST + """
                  bindings:
                    - { channel: discord, guild: "123456789", agent: support }
                    - { channel: slack, workspace: T42, chat: C1, thread: "17.5", agent: local }
                    - { channel: telegram, account: second, dm: true, agent: tiny }
                """).agents();
        assertEquals(List.of(
                new AgentBinding("discord", null, "123456789", null, null, null, "support"),
                new AgentBinding("slack", null, "T42", "C1", "17.5", null, "local"),
                new AgentBinding("telegram", "second", null, null, null, true, "tiny")), agents.bindings());
        assertEquals(Map.of("main", List.of("local", "tiny"), "local", List.of("tiny")), agents.fallback());
        assertEquals(Set.of("main"), agents.noticeAgents(), "local has a fallback but takes the default notice: off");
        assertEquals(List.of("main", "local", "tiny", "support"), agents.reachable());
    }

    @Test
    void theDefaultNoticeAppliesToAgentsThatDoNotSay() throws Exception {
        AgentsConfig agents = parse("""
                agents:
                  defaults: { agent: main, fallbackNotice: true }
                  list:
                    main: { provider: echo, fallback: [local] }
                    local: { provider: echo, fallback: [tiny], fallbackNotice: false }
                    tiny: { provider: echo }
                """).agents();
        assertEquals(Set.of("main"), agents.noticeAgents());
        assertTrue(agents.fallbackNotice());
    }

    @Test
    void onlyReachableAgentsAreBuilt() throws Exception {
        AgentsConfig agents = parse("""
                agents:
                  defaults: { agent: main }
                  list:
                    main: { provider: echo, fallback: [local] }
                    local: { provider: echo }
                    spare: { provider: echo }
                """).agents();
        assertEquals(List.of("main", "local"), agents.reachable());
    }

    @Test
    void anUnknownAgentInABindingOrAFallback_isReportedAtItsValue_withADidYouMean() {
        assertEquals(List.of(
                new ConfigProblem("agents.list.main.fallback[1]", 4, 47,
                        "no agent named \"lcoal\" in agents.list, did you mean \"local\"? (agents.list has: main, local)"),
                new ConfigProblem("agents.bindings[0].agent", 7, 34,
                        "no agent named \"suport\" in agents.list (agents.list has: main, local)")),
                problems("""
                        agents:
                          defaults: { agent: main }
                          list:
                            main: { provider: echo, fallback: [local, lcoal] }
                            local: { provider: echo }
                          bindings:
                            - { channel: discord, agent: suport }
                        """));
    }

    @Test
    void aFallbackCycle_saysCycle_andNamesTheAgents() {
        assertEquals("laneway.yaml: agents.list.a.fallback: fallback cycle: a → b → c → a (a run tries each agent"
                        + " once; remove one of these fallbacks) (line 4, column 26)",
                onlyProblem("""
                        agents:
                          defaults: { agent: a }
                          list:
                            a: { provider: echo, fallback: [b] }
                            b: { provider: echo, fallback: [c] }
                            c: { provider: echo, fallback: [a] }
                        """));
        assertEquals("laneway.yaml: agents.list.solo.fallback: fallback cycle: solo → solo (a run tries each agent"
                        + " once; remove one of these fallbacks) (line 3, column 29)",
                onlyProblem("""
                        agents:
                          list:
                            solo: { provider: echo, fallback: [solo] }
                        """));
    }

    @Test
    void twoSeparateCycles_areBothReported() {
        List<ConfigProblem> problems = problems("""
                agents:
                  defaults: { agent: a }
                  list:
                    a: { provider: echo, fallback: [b] }
                    b: { provider: echo, fallback: [a] }
                    c: { provider: echo, fallback: [d] }
                    d: { provider: echo, fallback: [c] }
                """);
        assertEquals(List.of("agents.list.a.fallback", "agents.list.c.fallback"),
                problems.stream().map(ConfigProblem::path).toList());
        assertTrue(problems.get(1).message().startsWith("fallback cycle: c → d → c"), problems.get(1).message());
    }

    @Test
    void aBindingAnEarlierOneShadows_canNeverMatch() {
        assertEquals(List.of(
                new ConfigProblem("agents.bindings[1]", 10, 7,
                        "can never match: agents.bindings[0] (line 9) comes first and matches every message this one"
                                + " would (its conditions are a subset of these); move this binding above it or remove it"),
                new ConfigProblem("agents.bindings[3]", 12, 7,
                        "can never match: agents.bindings[2] (line 11) comes first and matches every message this one"
                                + " would (its conditions are a subset of these); move this binding above it or remove it")),
                problems("""
                        agents:
                          defaults: { agent: main }
                        """ + LIST + """
                          bindings:
                            - { channel: discord, agent: local }
                            - { channel: discord, guild: "1", agent: support }
                            - { dm: true, agent: tiny }
                            - { channel: slack, dm: true, agent: support }
                            - { channel: slack, dm: false, agent: support }
                        """));
    }

    @Test
    void aBindingWithoutConditionsShadowsEveryLaterOne_butDifferentValuesDoNot() throws Exception {
        assertEquals(1, problems("""
                agents:
                  defaults: { agent: main }
                """ + LIST + """
                  bindings:
                    - { agent: local }
                    - { channel: console, agent: support }
                """).size());
        assertEquals(3, parse("""
                agents:
                  defaults: { agent: main }
                """ + LIST + """
                  bindings:
                    - { channel: discord, guild: "1", agent: local }
                    - { channel: discord, guild: "2", agent: support }
                    - { channel: discord, agent: tiny }
                """).agents().bindings().size());
    }

    @Test
    void badBindings_areReportedAtTheirKeys() {
        assertEquals(List.of(
                new ConfigProblem("agents.bindings[0].channel", 9, 18, "unknown channel \"discrod\", expected one of"
                        + " console, telegram, discord, slack"),
                new ConfigProblem("agents.bindings[1]", 10, 7, "needs an agent (one of main, local, tiny, support)"),
                new ConfigProblem("agents.bindings[2].space", 11, 21, "give only one of guild, workspace and space (each is"
                        + " the message's space), found guild and space"),
                new ConfigProblem("agents.bindings[3].dm", 12, 13, "must be true or false, got \"maybe\""),
                new ConfigProblem("agents.bindings[4].gulid", 13, 9, "unknown key, did you mean \"guild\"?")),
                problems("""
                        agents:
                          defaults: { agent: main }
                        """ + LIST + """
                          bindings:
                            - { channel: discrod, agent: main }
                            - { channel: slack }
                            - { guild: "1", space: "2", agent: main }
                            - { dm: maybe, agent: main }
                            - { gulid: "1", agent: main }
                        """));
        assertEquals("laneway.yaml: agents.bindings: must be a list of bindings (- { channel: discord, agent: main }),"
                + " got a mapping (line 1, column 21)", onlyProblem("agents: { bindings: { channel: discord } }"));
    }

    @Test
    void aFallbackThatIsNotAList_isReported() {
        assertEquals("laneway.yaml: agents.list.main.fallback: must be a list of agent names (like [local, small]),"
                        + " got \"local\" (line 4, column 39)",
                onlyProblem("""
                        agents:
                          defaults: { agent: main }
                          list:
                            main: { provider: echo, fallback: local }
                            local: { provider: echo }
                        """));
    }

    @Test
    void configShow_printsBindingsAndFallbacks_andLoadsBack() throws Exception {
        LanewayConfig config = parse("""
                agents:
                  defaults: { agent: main }
                """ + LIST + """
                  bindings:
                    - { channel: discord, guild: "123", agent: support }
                    - { channel: telegram, dm: false, agent: local }
                """);
        String yaml = ConfigPrinter.effectiveYaml(config);
        assertTrue(yaml.contains("fallback:"), yaml);
        assertTrue(yaml.contains("space: 123"), yaml);
        assertEquals(config.agents(), parse(yaml).agents());
    }
}
