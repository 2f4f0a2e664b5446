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
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Binds {@code scheduling:} (docs/configuration.md, "Scheduling"): how {@code main} shares its slots
 * among classes and tenants. Every bad value is reported with its line and column and replaced by
 * its default, so one mistake does not hide the next.
 */
final class SchedulingBinder {

    static final List<String> KEYS = List.of("mode", "agingAfter", "backgroundShare", "initialRunTime", "classes",
            "tenants", "rules");
    private static final String CLASSES = names(PriorityClass.values(), PriorityClass::configName);
    private static final String ACTIONS = names(OverBudget.values(), OverBudget::configName);
    private static final String KINDS = names(MessageKind.values(), MessageKind::configName);
    private static final Duration MAX_DURATION = Duration.ofDays(1);

    private SchedulingBinder() {
    }

    static SchedulingSettings bind(Section scheduling) {
        SchedulingSettings d = SchedulingSettings.defaults();
        SchedulingSettings.Mode mode = scheduling.choice("mode", d.mode(),
                raw -> Optional.ofNullable(SchedulingSettings.Mode.byConfigName(lower(raw))), "fair, fifo");
        Duration aging = positive(scheduling, "agingAfter", d.agingAfter());
        Double share = scheduling.optionalNumber("backgroundShare", 0.01, 1);
        Duration initial = positive(scheduling, "initialRunTime", d.initialRunTime());
        Map<PriorityClass, ClassPolicy> classes = classes(scheduling.section("classes", classNames()));
        Section tenants = scheduling.section("tenants", "scope", "weight", "maxRunning", "maxPending", "overrides");
        Tenants.Scope scope = tenants.choice("scope", Tenants.Scope.SPACE,
                raw -> Optional.ofNullable(Tenants.Scope.byConfigName(lower(raw))), "space, chat");
        TenantLimits defaults = limits(tenants, TenantLimits.DEFAULT);
        Map<String, TenantLimits> overrides = new LinkedHashMap<>();
        Section byTenant = tenants.openSection("overrides");
        for (String tenant : byTenant.keys()) {
            overrides.put(tenant, limits(byTenant.section(tenant, "weight", "maxRunning", "maxPending"), defaults));
        }
        return new SchedulingSettings(mode, aging, share == null ? d.backgroundShare() : share, classes, scope,
                defaults, overrides, rules(scheduling), initial);
    }

    private static String[] classNames() {
        return Arrays.stream(PriorityClass.values()).map(PriorityClass::configName).toArray(String[]::new);
    }

    private static Map<PriorityClass, ClassPolicy> classes(Section classes) {
        Map<PriorityClass, ClassPolicy> defaults = SchedulingSettings.defaultClasses();
        Map<PriorityClass, ClassPolicy> bound = new EnumMap<>(PriorityClass.class);
        for (PriorityClass priority : PriorityClass.values()) {
            ClassPolicy d = defaults.get(priority);
            Section policy = classes.section(priority.configName(), "budget", "overBudget");
            Duration budget = policy.duration("budget", d.budget());
            if (budget.compareTo(MAX_DURATION) > 0) {
                policy.problem("budget", "must be at most 1d, got " + budget.toSeconds() + "s");
                budget = d.budget();
            }
            OverBudget action = policy.choice("overBudget", d.overBudget(),
                    raw -> Optional.ofNullable(OverBudget.byConfigName(lower(raw))), ACTIONS);
            bound.put(priority, new ClassPolicy(budget, action));
        }
        return bound;
    }

    private static TenantLimits limits(Section section, TenantLimits defaults) {
        return new TenantLimits(
                section.integer("weight", defaults.weight(), 1, TenantLimits.MAX_WEIGHT),
                section.integer("maxRunning", defaults.maxRunning(), 0, Integer.MAX_VALUE),
                section.integer("maxPending", defaults.maxPending(), 0, Integer.MAX_VALUE));
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
            Section rule = Section.of(item, item.pos(), path + "[" + i + "]", scheduling.problems(),
                    List.of("channel", "chat", "kinds", "class"));
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
            PriorityClass priority = rule.choice("class", null,
                    raw -> Optional.ofNullable(PriorityClass.byConfigName(lower(raw))), CLASSES);
            if (priority != null) {
                rules.add(new ClassRule(channel, rule.string("chat", null), kinds, priority));
            }
        }
        return rules;
    }

    private static Duration positive(Section section, String key, Duration defaultValue) {
        Duration value = section.duration(key, defaultValue);
        if (value.isZero() || value.isNegative() || value.compareTo(MAX_DURATION) > 0) {
            section.problem(key, "must be more than 0 and at most 1d, got " + value.toMillis() + "ms");
            return defaultValue;
        }
        return value;
    }

    private static String lower(String raw) {
        return raw.trim().toLowerCase(Locale.ROOT);
    }

    private static <E> String names(E[] values, java.util.function.Function<E, String> name) {
        return Arrays.stream(values).map(name).collect(Collectors.joining(", "));
    }
}
