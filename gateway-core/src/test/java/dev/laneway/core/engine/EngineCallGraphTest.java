package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No call cycles between the engine's classes: the owner of a state is called by its helpers'
 * callers, never by the helpers (they return decisions, or hand them to a function they were
 * given). Reads the compiled classes of the package: an edge A → B is a method call, constructor
 * call or field access of A on B, as the class file's constant pool lists them; a type only named
 * (a field's or parameter's declared type, a generic argument, a class literal) is no call.
 * Nested types (records, enums, interfaces inside a class) count as their top-level class.
 */
class EngineCallGraphTest {

    private static final String PACKAGE = "dev/laneway/core/engine/";

    @Test
    void theEnginesClassesCallEachOtherWithoutCycles() throws Exception {
        Map<String, Set<String>> calls = callGraph();
        assertTrue(calls.containsKey("SessionQueue") && calls.get("SessionQueue").contains("RunDriver"),
                "the graph was read: " + calls);
        List<String> cycle = findCycle(calls);
        assertEquals(List.of(), cycle, "a call cycle between engine classes");
    }

    @Test
    void theCycleFinderFindsACycle() {
        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put("A", Set.of("B"));
        graph.put("B", Set.of("C"));
        graph.put("C", Set.of("A"));
        graph.put("D", Set.of("A"));
        assertEquals(List.of("A", "B", "C", "A"), findCycle(graph));
    }

    private static Map<String, Set<String>> callGraph() throws IOException, URISyntaxException {
        Path dir = Path.of(SessionQueue.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve(PACKAGE);
        Map<String, Set<String>> calls = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = topLevel(file.getFileName().toString().replace(".class", ""));
                if (name.equals("package-info")) {
                    continue;
                }
                Set<String> targets = calls.computeIfAbsent(name, k -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(file)) {
                    for (String owner : memberOwners(in)) {
                        if (owner.startsWith(PACKAGE) && owner.indexOf('/', PACKAGE.length()) < 0) {
                            String target = topLevel(owner.substring(PACKAGE.length()));
                            if (!target.equals(name)) {
                                targets.add(target);
                            }
                        }
                    }
                }
            }
        }
        return calls;
    }

    private static String topLevel(String binaryName) {
        int dollar = binaryName.indexOf('$');
        return dollar < 0 ? binaryName : binaryName.substring(0, dollar);
    }

    /** The classes whose fields and methods a class file refers to (its Fieldref, Methodref, InterfaceMethodref entries). */
    private static Set<String> memberOwners(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNames = new int[count];
        List<Integer> memberClasses = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 7 -> classNames[i] = in.readUnsignedShort();
                case 9, 10, 11 -> {
                    memberClasses.add(in.readUnsignedShort());
                    in.readUnsignedShort();
                }
                case 3, 4, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8);
                    i++; // takes two entries
                }
                case 8, 16, 19, 20 -> in.skipNBytes(2);
                case 15 -> in.skipNBytes(3);
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        Set<String> owners = new HashSet<>();
        memberClasses.forEach(index -> owners.add(utf8[classNames[index]]));
        return owners;
    }

    /** A cycle of {@code graph} (first node repeated at the end), or an empty list. */
    private static List<String> findCycle(Map<String, Set<String>> graph) {
        Map<String, Integer> colour = new HashMap<>(); // absent: unseen, 1: on the path, 2: done
        for (String start : graph.keySet()) {
            List<String> path = new ArrayList<>();
            List<String> cycle = visit(start, graph, colour, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        return List.of();
    }

    private static List<String> visit(String node, Map<String, Set<String>> graph, Map<String, Integer> colour,
                                      List<String> path) {
        Integer seen = colour.get(node);
        if (seen != null && seen == 2) {
            return List.of();
        }
        if (seen != null) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
            cycle.add(node);
            return cycle;
        }
        colour.put(node, 1);
        path.add(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            List<String> cycle = visit(next, graph, colour, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        colour.put(node, 2);
        return List.of();
    }
}
