package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentBinding;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The gateway's agents by name, which one answers where, and where each falls back to
 * (docs/behaviour.md §13): {@code agents.bindings} (first match wins, the default agent last) and
 * each agent's {@code fallback} list. A run resolves its agent once, from its lead message
 * ({@link #bound}), and keeps its {@link #ladder}: that agent, then its fallbacks, each followed by
 * its own fallbacks, every agent once. Immutable and thread-safe once built.
 */
public final class AgentRoster {

    private final Map<String, Member> members;
    private final List<AgentBinding> bindings;
    private final String defaultAgent;
    // agent name -> its ladder (the agent first), computed once
    private final Map<String, List<String>> ladders = new LinkedHashMap<>();

    /** One agent and what it falls back to. */
    private record Member(Agent agent, List<String> fallback, boolean fallbackNotice) {
    }

    private AgentRoster(Builder b) {
        this.members = Map.copyOf(b.members);
        this.bindings = List.copyOf(b.bindings);
        this.defaultAgent = b.defaultAgent;
        b.members.keySet().forEach(name -> ladders.put(name, List.copyOf(ladderOf(name, new LinkedHashSet<>()))));
    }

    /** One agent answering everything, with no fallback (tests, the single-agent gateway). */
    public static AgentRoster of(Agent agent) {
        String name = AgentCalls.name(agent).value();
        return builder().agent(name, agent, List.of(), false).defaultAgent(name).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The name of the agent that answers {@code message}: the first binding it matches, else the default agent. */
    public String bound(InboundMessage message) {
        for (AgentBinding binding : bindings) {
            if (binding.matches(message)) {
                return binding.agent();
            }
        }
        return defaultAgent;
    }

    /** {@code name}, then the agents it falls back to, in the order a run tries them; every agent once. */
    public List<String> ladder(String name) {
        List<String> ladder = ladders.get(name);
        if (ladder == null) {
            throw new IllegalArgumentException("no agent named " + name);
        }
        return ladder;
    }

    /** The agent of that name. */
    public Agent agent(String name) {
        Member member = members.get(name);
        if (member == null) {
            throw new IllegalArgumentException("no agent named " + name);
        }
        return member.agent();
    }

    /** Whether a run bound to {@code name} tells its user when a fallback answered ({@code fallbackNotice}). */
    public boolean fallbackNotice(String name) {
        Member member = members.get(name);
        return member != null && member.fallbackNotice();
    }

    /** The name the roster holds {@code agent} under (the same object), if it holds it. */
    public Optional<String> nameOf(Agent agent) {
        return members.entrySet().stream().filter(entry -> entry.getValue().agent() == agent).map(Map.Entry::getKey)
                .findFirst();
    }

    /** Every agent, each once. */
    public Collection<Agent> agents() {
        List<Agent> agents = new ArrayList<>();
        members.values().forEach(member -> {
            if (agents.stream().noneMatch(known -> known == member.agent())) {
                agents.add(member.agent());
            }
        });
        return agents;
    }

    public String defaultAgent() {
        return defaultAgent;
    }

    public List<AgentBinding> bindings() {
        return bindings;
    }

    private List<String> ladderOf(String name, LinkedHashSet<String> into) {
        if (into.add(name)) {
            for (String next : members.get(name).fallback()) {
                ladderOf(next, into);
            }
        }
        return new ArrayList<>(into);
    }

    /**
     * The first fallback cycle among {@code fallbacks} (agent name -> the agents it falls back to),
     * in map order, as the agents along it with the first one repeated at the end
     * ({@code [a, b, a]}); empty when there is none. Names without an entry are ignored.
     */
    public static Optional<List<String>> findCycle(Map<String, List<String>> fallbacks) {
        Map<String, Integer> state = new LinkedHashMap<>(); // 1: on the current path, 2: done
        for (String start : fallbacks.keySet()) {
            List<String> path = new ArrayList<>();
            Optional<List<String>> cycle = visit(start, fallbacks, state, path);
            if (cycle.isPresent()) {
                return cycle;
            }
        }
        return Optional.empty();
    }

    private static Optional<List<String>> visit(String name, Map<String, List<String>> fallbacks,
                                                Map<String, Integer> state, List<String> path) {
        Integer seen = state.get(name);
        if (seen != null && seen == 2) {
            return Optional.empty();
        }
        if (seen != null) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(name), path.size()));
            cycle.add(name);
            return Optional.of(cycle);
        }
        state.put(name, 1);
        path.add(name);
        for (String next : fallbacks.getOrDefault(name, List.of())) {
            if (fallbacks.containsKey(next)) {
                Optional<List<String>> cycle = visit(next, fallbacks, state, path);
                if (cycle.isPresent()) {
                    return cycle;
                }
            }
        }
        path.remove(path.size() - 1);
        state.put(name, 2);
        return Optional.empty();
    }

    /** A cycle as people read it: {@code a → b → a}. */
    public static String describeCycle(List<String> cycle) {
        return String.join(" → ", cycle);
    }

    /**
     * Builds a roster; {@link #build} checks that the default agent, every binding's agent and every
     * fallback name an agent, and that no fallbacks form a cycle ({@link IllegalArgumentException}
     * otherwise: the config loader reports these at their lines first).
     */
    public static final class Builder {
        private final Map<String, Member> members = new LinkedHashMap<>();
        private final List<AgentBinding> bindings = new ArrayList<>();
        private String defaultAgent;

        private Builder() {
        }

        /**
         * @param fallback       the agents a run of this one continues on when it cannot answer, in order
         * @param fallbackNotice whether a run bound to this agent tells its user that a fallback answered
         */
        public Builder agent(String name, Agent agent, List<String> fallback, boolean fallbackNotice) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(agent, "agent");
            if (members.putIfAbsent(name, new Member(agent, List.copyOf(fallback), fallbackNotice)) != null) {
                throw new IllegalArgumentException("two agents named " + name);
            }
            return this;
        }

        /** An agent without fallbacks. */
        public Builder agent(String name, Agent agent) {
            return agent(name, agent, List.of(), false);
        }

        /** The next binding, after those added before it. */
        public Builder binding(AgentBinding binding) {
            bindings.add(Objects.requireNonNull(binding, "binding"));
            return this;
        }

        /** The agent answering messages no binding matches; default: the first agent added. */
        public Builder defaultAgent(String name) {
            defaultAgent = name;
            return this;
        }

        public AgentRoster build() {
            if (members.isEmpty()) {
                throw new IllegalArgumentException("no agents");
            }
            if (defaultAgent == null) {
                defaultAgent = members.keySet().iterator().next();
            }
            requireKnown(defaultAgent, "the default agent");
            bindings.forEach(binding -> requireKnown(binding.agent(), "the binding " + binding.describe()));
            Map<String, List<String>> fallbacks = new LinkedHashMap<>();
            members.forEach((name, member) -> {
                member.fallback().forEach(next -> requireKnown(next, "the fallback of " + name));
                fallbacks.put(name, member.fallback());
            });
            findCycle(fallbacks).ifPresent(cycle -> {
                throw new IllegalArgumentException("fallback cycle: " + describeCycle(cycle));
            });
            return new AgentRoster(this);
        }

        private void requireKnown(String name, String what) {
            if (!members.containsKey(name)) {
                throw new IllegalArgumentException(what + " names no agent: " + name + " (agents: "
                        + String.join(", ", members.keySet()) + ")");
            }
        }
    }
}
