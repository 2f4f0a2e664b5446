package dev.laneway.config;

import dev.laneway.config.YamlNode.ListNode;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.core.scheduling.ClassPolicy;
import dev.laneway.core.scheduling.ClassRule;
import dev.laneway.core.scheduling.MessageKind;
import dev.laneway.core.scheduling.OverBudget;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.scheduling.TenantLimits;
import dev.laneway.core.scheduling.Tenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Binds {@code scheduling:} (docs/configuration.md, "Scheduling"): how {@code main} shares its slots
 * among classes and tenants. Every bad value is reported with its line and column and replaced by
 * its default, so one mistake does not hide the next.
 */
final class SchedulingBinder {

    private static final KeySpec.Obj SPEC = ConfigKeys.SCHEDULING;
    private static final String CLASSES = ConfigKeys.RULE.leaf("class").wordList();
    private static final String KINDS = String.join(", ", ConfigKeys.RULE.leaf("kinds").words());
    private static final Duration MAX_DURATION = Duration.ofDays(1);

    private SchedulingBinder() {
    }

    static SchedulingSettings bind(Section scheduling) {
        SchedulingSettings d = SchedulingSettings.defaults();
        SchedulingSettings.Mode mode = scheduling.choice(SPEC.leaf("mode"), d.mode(),
                raw -> Optional.ofNullable(SchedulingSettings.Mode.byConfigName(lower(raw))));
        Duration aging = positive(scheduling, SPEC.leaf("agingAfter"));
        Double share = scheduling.optionalNumber(SPEC.leaf("backgroundShare"));
        Duration initial = positive(scheduling, SPEC.leaf("initialRunTime"));
        Map<PriorityClass, ClassPolicy> classes = classes(scheduling.section(SPEC.obj("classes")));
        KeySpec.Obj tenantsSpec = ConfigKeys.TENANTS;
        Section tenants = scheduling.section(tenantsSpec);
        Tenants.Scope scope = tenants.choice(tenantsSpec.leaf("scope"), Tenants.Scope.SPACE,
                raw -> Optional.ofNullable(Tenants.Scope.byConfigName(lower(raw))));
        TenantLimits defaults = limits(tenants, TenantLimits.DEFAULT);
        Map<String, TenantLimits> overrides = new LinkedHashMap<>();
        Section byTenant = tenants.openSection("overrides");
        for (String tenant : byTenant.keys()) {
            overrides.put(tenant, limits(byTenant.section(ConfigKeys.TENANT_LIMITS.named(tenant)), defaults));
        }
        return new SchedulingSettings(mode, aging, share == null ? d.backgroundShare() : share, classes, scope,
                defaults, overrides, rules(scheduling), initial);
    }

    private static Map<PriorityClass, ClassPolicy> classes(Section classes) {
        Map<PriorityClass, ClassPolicy> defaults = SchedulingSettings.defaultClasses();
        Map<PriorityClass, ClassPolicy> bound = new EnumMap<>(PriorityClass.class);
        for (PriorityClass priority : PriorityClass.values()) {
            ClassPolicy d = defaults.get(priority);
            KeySpec.Obj spec = SPEC.obj("classes").obj(priority.configName());
            Section policy = classes.section(spec);
            Duration budget = policy.duration(spec.leaf("budget"));
            if (budget.compareTo(MAX_DURATION) > 0) {
                policy.problem("budget", "must be at most 1d, got " + budget.toSeconds() + "s");
                budget = d.budget();
            }
            OverBudget action = policy.choice(spec.leaf("overBudget"), d.overBudget(),
                    raw -> Optional.ofNullable(OverBudget.byConfigName(lower(raw))));
            bound.put(priority, new ClassPolicy(budget, action));
        }
        return bound;
    }

    private static TenantLimits limits(Section section, TenantLimits defaults) {
        KeySpec.Obj spec = ConfigKeys.TENANT_LIMITS;
        return new TenantLimits(
                section.integer(spec.leaf("weight"), defaults.weight()),
                section.integer(spec.leaf("maxRunning"), defaults.maxRunning()),
                section.integer(spec.leaf("maxPending"), defaults.maxPending()));
    }

    /** {@code rules:} a list of {@code {channel, chat, kinds, class}}; {@code class} is required. */
    private static List<ClassRule> rules(Section scheduling) {
        YamlNode node = scheduling.value("rules");
        if (node == null || node instanceof ScalarNode s && (s.isNull() || s.reported())) {
            return List.of();
        }
        String path = scheduling.pathOf("rules");
        if (!(node instanceof ListNode list)) {
            scheduling.problems().add(path, node.pos(), "must be a list of rules (- { kinds: [group], class: normal }), got "
                    + YamlNode.describe(node));
            return List.of();
        }
        List<ClassRule> rules = new ArrayList<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            Section rule = Section.of(item, path + "[" + i + "]", scheduling.problems(), ConfigKeys.RULE);
            String channel = rule.string("channel", null);
            if (channel != null && !ChannelsConfig.NAMES.contains(channel)) {
                rule.problem("channel", "unknown channel " + YamlNode.quote(channel) + ", expected one of "
                        + String.join(", ", ChannelsConfig.NAMES));
            }
            Set<MessageKind> kinds = new LinkedHashSet<>();
            for (String raw : rule.stringList("kinds")) {
                MessageKind kind = MessageKind.byConfigName(lower(raw));
                if (kind == null) {
                    rule.problem("kinds", "unknown kind " + YamlNode.quote(raw) + ", expected some of " + KINDS);
                } else {
                    kinds.add(kind);
                }
            }
            if (!rule.has("class")) {
                scheduling.problems().add(path + "[" + i + "]", item.pos(), "needs a class (one of " + CLASSES + ")");
                continue;
            }
            PriorityClass priority = rule.choice(ConfigKeys.RULE.leaf("class"), null,
                    raw -> Optional.ofNullable(PriorityClass.byConfigName(lower(raw))));
            if (priority != null) {
                rules.add(new ClassRule(channel, rule.string("chat", null), kinds, priority));
            }
        }
        return rules;
    }

    private static Duration positive(Section section, KeySpec.Leaf key) {
        Duration value = section.duration(key);
        if (value.isZero() || value.isNegative() || value.compareTo(MAX_DURATION) > 0) {
            section.problem(key.name(), "must be more than 0 and at most 1d, got " + value.toMillis() + "ms");
            return (Duration) key.defaultValue();
        }
        return value;
    }

    private static String lower(String raw) {
        return raw.trim().toLowerCase(Locale.ROOT);
    }
}
