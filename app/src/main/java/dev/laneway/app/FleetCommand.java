package dev.laneway.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.laneway.app.ops.FleetIngress;
import dev.laneway.config.ConfigException;
import dev.laneway.config.GatewayConfig;
import dev.laneway.config.LanewayConfig;
import dev.laneway.store.StoreException;
import dev.laneway.store.redis.FleetReport;
import dev.laneway.store.redis.RedisFleetReader;
import dev.laneway.store.redis.RedisTarget;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code laneway fleet [--config FILE] [--json]}: the fleet a configuration belongs to, as its Redis
 * holds it now (docs/configuration.md §18.4, docs/behaviour.md §17): the live instances, who takes
 * each platform's updates, the fleet's {@code main} permits and the pending sessions nobody holds.
 * Read-only: it does not join the fleet and writes no key ({@link RedisFleetReader}). Exit 0; 2 for a
 * configuration that is invalid or not on Redis; 1 when Redis cannot be read.
 */
@Command(name = "fleet", description = "Show the fleet on Redis: instances, ingress, leases, permits, unleased sessions.")
final class FleetCommand implements Callable<Integer> {

    /** Unleased sessions named in the text output at most (the JSON lists them all). */
    static final int SESSIONS_SHOWN = 10;

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "The YAML file (default: ./laneway.yaml if present).")
    Path config;

    @Option(names = "--json", description = "Print one JSON object, for scripts.")
    boolean json;

    /** What {@code --json} prints. */
    record Output(String fleet, String redis, List<FleetReport.Member> instances, List<FleetIngress.Holders> ingress,
                  long mainPermitsInUse, int mainCap, long pendingMessages, List<String> unleasedSessions) {
    }

    @Override
    public Integer call() {
        return run(System.getenv());
    }

    int run(Map<String, String> env) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LanewayConfig loaded;
        try {
            loaded = ConfigSource.load(config, env);
        } catch (ConfigException e) {
            err.println(e.getMessage());
            return 2;
        }
        GatewayConfig.Store store = loaded.gateway().store();
        if (store.kind() != GatewayConfig.Store.Kind.REDIS) {
            err.println("laneway fleet: " + ConfigSource.describe(config) + " has gateway.store.kind: sqlite, a single"
                    + " instance without a fleet. A fleet shares one Redis: set gateway.store.kind: redis, url and fleet"
                    + " (docs/configuration.md §4).");
            return 2;
        }
        RedisTarget target = new RedisTarget(store.url(), store.fleet());
        List<FleetIngress.Plan> plans = FleetIngress.plan(loaded.channels());
        FleetReport report;
        try {
            report = RedisFleetReader.read(target, FleetIngress.leases(plans));
        } catch (StoreException e) {
            err.println("laneway fleet: " + e.getMessage());
            return 1;
        }
        Output output = new Output(report.fleet(), target.redactedUrl(), report.instances(),
                FleetIngress.holders(plans, report), report.mainPermitsInUse(), loaded.agents().maxConcurrent(),
                report.pendingMessages(), report.unleased());
        if (json) {
            out.println(json(output));
        } else {
            text(output, out);
        }
        out.flush();
        return 0;
    }

    private static String json(Output output) {
        try {
            return JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValueAsString(output);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the fleet report could not be written as JSON", e);
        }
    }

    private static void text(Output output, PrintWriter out) {
        out.println("fleet " + output.fleet() + " on " + output.redis() + ": " + output.instances().size()
                + " live instance(s)");
        if (!output.instances().isEmpty()) {
            int width = Math.max("instance".length(),
                    output.instances().stream().mapToInt(member -> member.id().length()).max().orElse(0));
            out.println(String.format(Locale.ROOT, "  %-" + width + "s  %-15s  %6s  %12s", "instance", "heartbeat",
                    "leases", "main permits"));
            for (FleetReport.Member member : output.instances()) {
                out.println(String.format(Locale.ROOT, "  %-" + width + "s  %-15s  %6s  %12d", member.id(),
                        String.format(Locale.ROOT, "%.1f s ago", member.heartbeatAgeMillis() / 1000.0),
                        member.leases() < 0 ? "?" : Integer.toString(member.leases()), member.mainPermits()));
            }
        }
        if (output.ingress().isEmpty()) {
            out.println("ingress: no platform channel enabled");
        } else {
            out.println("ingress:");
            for (FleetIngress.Holders holders : output.ingress()) {
                out.println("  " + holders.channel() + " (" + holders.mode() + "): " + who(holders));
            }
        }
        out.println("main permits: " + output.mainPermitsInUse() + " in use of " + output.mainCap()
                + " (agents.defaults.maxConcurrent)");
        List<String> unleased = output.unleasedSessions();
        String sessions = unleased.isEmpty() ? "none"
                : String.join(", ", unleased.subList(0, Math.min(SESSIONS_SHOWN, unleased.size())))
                        + (unleased.size() > SESSIONS_SHOWN ? ", and " + (unleased.size() - SESSIONS_SHOWN) + " more" : "");
        out.println("pending: " + output.pendingMessages() + " message(s); sessions with no lease: "
                + unleased.size() + (unleased.isEmpty() ? "" : " (" + sessions + ")"));
    }

    private static String who(FleetIngress.Holders holders) {
        if (holders.lease() != null) {
            String nobody = "discord".equals(holders.channel()) ? "nobody connects this shard now" : "nobody polls now";
            return holders.instances().isEmpty() ? nobody + " (lease " + holders.lease() + " not held)"
                    : holders.instances().get(0) + " (lease " + holders.lease() + ")";
        }
        return "every instance";
    }
}
