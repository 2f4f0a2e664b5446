package dev.laneway.config;

import dev.laneway.config.YamlNode.ListNode;
import dev.laneway.config.YamlNode.Pos;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.core.jobs.Every;
import dev.laneway.core.jobs.FireSchedule;
import dev.laneway.core.jobs.IfBusy;
import dev.laneway.core.jobs.JobTarget;
import dev.laneway.core.jobs.ScheduledJob;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds {@code schedules:} (docs/configuration.md §14), a list of jobs, after {@code channels} and
 * {@code agents}, which a job's target and agent must name. Every problem is reported at its key's
 * line and column: a cron expression that does not parse (saying why), both or neither of
 * {@code cron} and {@code every}, an unknown time zone, a target channel that is not enabled, an
 * unknown agent, a duplicate id, a negative {@code catchUp}, an {@code ifBusy} other than
 * {@code wait} or {@code skip}.
 */
final class SchedulesBinder {

    static final String KEY = ConfigKeys.SCHEDULES.name();

    private SchedulesBinder() {
    }

    static List<ScheduledJob> bind(Section root, ChannelsConfig channels, AgentsConfig agents) {
        YamlNode node = root.value(KEY);
        if (node == null || node instanceof ScalarNode s && (s.isNull() || s.reported())) {
            return List.of();
        }
        if (!(node instanceof ListNode list)) {
            root.problem(KEY, "must be a list of jobs (lines starting with \"- id: …\"), got " + YamlNode.describe(node));
            return List.of();
        }
        List<ScheduledJob> jobs = new ArrayList<>();
        Map<String, Pos> ids = new HashMap<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            Section job = Section.of(item, KEY + "[" + i + "]", root.problems(), ConfigKeys.JOB);
            if (!(item instanceof YamlNode.MapNode)) {
                continue; // reported by Section.of
            }
            ScheduledJob bound = job(job, channels, agents, ids);
            if (bound != null) {
                jobs.add(bound);
            }
        }
        return List.copyOf(jobs);
    }

    /** One job, or null when it has a problem (reported). */
    private static ScheduledJob job(Section job, ChannelsConfig channels, AgentsConfig agents, Map<String, Pos> ids) {
        int before = problemCount(job);
        String id = required(job, "id", "(a name for the job, e.g. id: morning)");
        if (id != null) {
            Pos first = ids.putIfAbsent(id, job.valuePos("id"));
            if (first != null) {
                job.problem("id", "duplicate id " + YamlNode.quote(id) + " (first used at line " + first.line()
                        + "): every job needs its own id");
            }
        }
        ZoneId zone = zone(job);
        FireSchedule schedule = schedule(job, zone);
        JobTarget target = target(job, channels);
        String prompt = required(job, "prompt", "(the text the agent gets at each fire)");
        String agent = agent(job, agents);
        IfBusy ifBusy = job.choice(ConfigKeys.JOB.leaf("ifBusy"), IfBusy.WAIT, IfBusy::parse);
        Duration catchUp = catchUp(job);
        if (problemCount(job) != before || id == null || schedule == null || target == null || prompt == null) {
            return null;
        }
        return new ScheduledJob(id, schedule, zone, target, prompt, agent, ifBusy, catchUp);
    }

    private static int problemCount(Section section) {
        return section.problems().count();
    }

    /** A required, non-blank string; null when absent or bad (reported). */
    private static String required(Section job, String key, String hint) {
        if (!job.has(key)) {
            if (!job.problems().reportedAt(job.pathOf(key))) {
                job.problemAtKey(key, "required " + hint);
            }
            return null;
        }
        return ConfigBinder.nonBlank(job, key, null);
    }

    private static ZoneId zone(Section job) {
        String name = ConfigBinder.nonBlank(job, "timezone", null);
        if (name == null) {
            return ScheduledJob.DEFAULT_ZONE;
        }
        try {
            return ZoneId.of(name.trim());
        } catch (DateTimeException e) {
            String hint = Suggestions.closest(name.trim(), ZoneId.getAvailableZoneIds())
                    .map(z -> ", did you mean \"" + z + "\"?").orElse(" (use an IANA name like Europe/Berlin, or UTC)");
            job.problem("timezone", "unknown time zone " + YamlNode.quote(name) + hint);
            return ScheduledJob.DEFAULT_ZONE;
        }
    }

    /** Exactly one of {@code cron} and {@code every}. */
    private static FireSchedule schedule(Section job, ZoneId zone) {
        boolean cron = job.has("cron");
        boolean every = job.has("every");
        if (cron && every) {
            job.problemAtKey("every", "a job has either cron or every, not both");
            return null;
        }
        if (!cron && !every) {
            if (!job.problems().reportedAt(job.pathOf("cron")) && !job.problems().reportedAt(job.pathOf("every"))) {
                job.problemAtKey("cron", "required: a cron expression (cron: \"0 8 * * 1-5\") or an interval (every: 30m)");
            }
            return null;
        }
        if (every) {
            Duration interval = job.optionalDuration("every");
            if (interval == null) {
                return null;
            }
            if (interval.isZero()) {
                job.problem("every", "must be an interval > 0 (e.g. every: 30m)");
                return null;
            }
            return new Every(interval);
        }
        String expression = ConfigBinder.nonBlank(job, "cron", null);
        if (expression == null) {
            return null;
        }
        try {
            return CronSchedule.parse(expression, zone);
        } catch (IllegalArgumentException e) {
            job.problem("cron", "invalid cron expression " + YamlNode.quote(expression) + ": " + e.getMessage());
            return null;
        }
    }

    private static JobTarget target(Section job, ChannelsConfig channels) {
        if (!job.has("target")) {
            job.problemAtKey("target", "required: where the job posts, e.g. target: { channel: telegram, chat: \"-100123\" }");
            return null;
        }
        Section target = job.section(ConfigKeys.TARGET);
        if (!(job.value("target") instanceof YamlNode.MapNode)) {
            return null; // reported
        }
        String channel = required(target, "channel", "(" + String.join(", ", ChannelsConfig.NAMES) + ")");
        String chat = required(target, "chat", "(the platform's chat or channel id)");
        String thread = target.string("thread", null);
        if (channel == null || chat == null) {
            return null;
        }
        if (!ChannelsConfig.NAMES.contains(channel)) {
            String hint = Suggestions.closest(channel, ChannelsConfig.NAMES).map(n -> ", did you mean \"" + n + "\"?")
                    .orElse(" (channels: " + String.join(", ", ChannelsConfig.NAMES) + ")");
            target.problem("channel", "unknown channel " + YamlNode.quote(channel) + hint);
            return null;
        }
        if (!enabled(channels, channel)) {
            target.problem("channel", "channel " + channel + " is not enabled, so the job could not post there"
                    + (channel.equals("console") ? " (the console is on only when no other channel is, unless"
                    + " channels.console.enabled is true)" : " (set channels." + channel + ".enabled: true)"));
            return null;
        }
        String space = target.string("space", null);
        return new JobTarget(channel, chat.trim(), thread == null || thread.isBlank() ? null : thread.trim(),
                space == null || space.isBlank() ? null : space.trim());
    }

    private static boolean enabled(ChannelsConfig channels, String name) {
        return switch (name) {
            case "console" -> channels.console().enabled();
            case "telegram" -> channels.telegram().enabled();
            case "discord" -> channels.discord().enabled();
            case "slack" -> channels.slack().enabled();
            default -> false;
        };
    }

    private static String agent(Section job, AgentsConfig agents) {
        String name = ConfigBinder.nonBlank(job, "agent", null);
        if (name == null || agents.list().containsKey(name)) {
            return name;
        }
        String hint = Suggestions.closest(name, agents.list().keySet()).map(n -> ", did you mean \"" + n + "\"?")
                .orElse("");
        job.problem("agent", "no agent named " + YamlNode.quote(name) + " in agents.list" + hint
                + " (agents.list has: " + String.join(", ", agents.list().keySet()) + ")");
        return null;
    }

    private static Duration catchUp(Section job) {
        if (job.value("catchUp") instanceof ScalarNode s && !s.isNull() && !s.reported() && s.text().trim().startsWith("-")) {
            job.problem("catchUp", "must not be negative, got " + YamlNode.describe(s)
                    + " (0 means a fire missed while the gateway was down is not run)");
            return Duration.ZERO;
        }
        return job.duration("catchUp", Duration.ZERO);
    }
}
