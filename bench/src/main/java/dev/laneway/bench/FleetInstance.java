package dev.laneway.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * One instance of {@link FleetThroughput}'s fleet, in a process of its own: a {@link FleetNode} on
 * the fleet's Redis with its share of the sessions (session {@code s} belongs to instance
 * {@code s mod instances}, so every message reaches the instance that runs its session, the best
 * case) in a closed loop. Protocol on stdin/stdout: prints {@code READY}, waits for {@code GO},
 * runs the loop for the warm-up and the measurement, prints one {@code RESULT} line and exits.
 * <pre>
 *   FleetInstance URL INDEX INSTANCES SESSIONS LATENCY_MS CAP WARMUP_S MEASURE_S
 * </pre>
 */
public final class FleetInstance {

    private FleetInstance() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        int index = Integer.parseInt(args[1]);
        int instances = Integer.parseInt(args[2]);
        int sessions = Integer.parseInt(args[3]);
        Duration latency = Duration.ofMillis(Long.parseLong(args[4]));
        int cap = Integer.parseInt(args[5]);
        long warmupMs = Long.parseLong(args[6]) * 1000;
        long measureMs = Long.parseLong(args[7]) * 1000;
        FleetNode node = new FleetNode(FleetNode.Kind.REDIS_FLEET, url, cap, 20, latency, "i" + index + "-");
        int[] mine = new int[(sessions - index + instances - 1) / instances];
        for (int i = 0, s = index; s < sessions; s += instances, i++) {
            mine[i] = s;
        }
        System.out.println("READY " + node.member.id());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String go = in.readLine();
        if (!"GO".equals(go)) {
            node.close(Duration.ZERO);
            return;
        }
        node.loop(mine);
        Thread.sleep(warmupMs);
        long ran0 = node.ran();
        long accepted0 = node.accepted();
        long runs0 = node.agent.starts();
        long cpu0 = cpuNanos();
        long t0 = System.nanoTime();
        Thread.sleep(measureMs);
        long ran = node.ran() - ran0;
        long accepted = node.accepted() - accepted0;
        long runs = node.agent.starts() - runs0;
        long cpu = cpuNanos() - cpu0;
        double seconds = (System.nanoTime() - t0) / 1e9;
        int leases = node.gateway.fleetLeases();
        int permits = node.gateway.fleetMainPermits();
        System.out.printf(Locale.ROOT, "RESULT ran=%d accepted=%d runs=%d cpu=%.3f seconds=%.3f other=%d leases=%d permits=%d%n",
                ran, accepted, runs, cpu / 1e9, seconds, node.other(), leases, permits);
        System.out.flush();
        node.close(Duration.ofSeconds(2));
        System.exit(0);
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
