package dev.laneway.agents.tool;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An immutable set of tools by name, in registration order. */
public final class ToolRegistry {

    private static final ToolRegistry EMPTY = new ToolRegistry(Map.of());

    // tool name -> tool
    private final Map<String, Tool> tools;

    private ToolRegistry(Map<String, Tool> tools) {
        this.tools = tools;
    }

    public static ToolRegistry empty() {
        return EMPTY;
    }

    /**
     * The built-in tools ({@code current_time}), reading time from {@code clock}: exactly the names
     * {@code OpenAiSettings.KNOWN_TOOLS} allows (a test keeps the two equal).
     */
    public static ToolRegistry builtIns(InstantSource clock) {
        return of(List.of(new CurrentTimeTool(clock)));
    }

    /** A registry of {@code tools}; two tools with one name are rejected. */
    public static ToolRegistry of(Collection<? extends Tool> tools) {
        Map<String, Tool> byName = new LinkedHashMap<>();
        for (Tool tool : tools) {
            if (byName.putIfAbsent(tool.name(), tool) != null) {
                throw new IllegalArgumentException("duplicate tool name '" + tool.name() + "'");
            }
        }
        return new ToolRegistry(Collections.unmodifiableMap(byName));
    }

    /**
     * The sub-registry of the named tools, in the given order, e.g. an agent's {@code tools} setting.
     *
     * @throws IllegalArgumentException naming the first unknown tool and the known ones
     */
    public ToolRegistry select(List<String> names) {
        List<Tool> selected = new ArrayList<>();
        for (String name : names) {
            Tool tool = tools.get(name);
            if (tool == null) {
                throw new IllegalArgumentException("unknown tool '" + name + "' (known: "
                        + String.join(", ", tools.keySet()) + ")");
            }
            selected.add(tool);
        }
        return of(selected);
    }

    public Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    public List<Tool> all() {
        return List.copyOf(tools.values());
    }

    public boolean isEmpty() {
        return tools.isEmpty();
    }
}
