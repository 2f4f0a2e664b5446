package dev.laneway.bench;

import java.util.Locale;
import redis.clients.jedis.Jedis;

/** Fields of Redis's {@code INFO} reply, for the fleet measurements (docs/architecture.md §10). */
final class RedisInfo {

    private RedisInfo() {
    }

    /** The field {@code name} of an {@code INFO} reply as a number; {@code NaN} when absent. */
    static double field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        return Double.NaN;
    }

    /** Bytes Redis's allocator has in use ({@code used_memory}). */
    static long usedMemory(Jedis jedis) {
        return (long) field(jedis.info("memory"), "used_memory");
    }

    /** Redis's CPU time so far, user plus system, in seconds ({@code INFO cpu}, main thread and children). */
    static double cpuSeconds(Jedis jedis) {
        String info = jedis.info("cpu");
        return field(info, "used_cpu_user") + field(info, "used_cpu_sys");
    }

    /** Commands Redis executed so far ({@code INFO stats}: {@code total_commands_processed}). */
    static long commandsProcessed(Jedis jedis) {
        return (long) field(jedis.info("stats"), "total_commands_processed");
    }

    static String percent(double part, double whole) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * part / whole);
    }
}
