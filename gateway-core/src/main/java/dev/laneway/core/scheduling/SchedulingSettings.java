package dev.laneway.core.scheduling;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How {@code main} shares its slots (the {@code scheduling:} section; docs/configuration.md).
 *
 * @param mode            {@link Mode#FAIR} (classes, fair share) or {@link Mode#FIFO} (one flat line,
 *                        the behaviour before scheduling existed)
 * @param agingAfter      a background run that has waited this long moves up to normal
 * @param backgroundShare the share of {@code main}'s slots background runs may hold while other runs
 *                        wait (at least one slot); when nobody else waits they may use them all
 * @param classes         each class's wait budget and over-budget action
 * @param tenantScope     what a group chat's tenant is
 * @param tenantDefaults  the limits of a tenant not listed in {@code tenants}
 * @param tenants         limits by tenant id
 * @param rules           classification rules, first match wins
 * @param initialRunTime  the run time estimates assume until runs have been observed
 */
public record SchedulingSettings(Mode mode, Duration agingAfter, double backgroundShare,
                                 Map<PriorityClass, ClassPolicy> classes, Tenants.Scope tenantScope,
                                 TenantLimits tenantDefaults, Map<String, TenantLimits> tenants,
                                 List<ClassRule> rules, Duration initialRunTime) {

    /** One flat FIFO, or classes with fair share. */
    public enum Mode {
        FAIR, FIFO;

        public String configName() {
            return ConfigNames.of(this);
        }

        public static Mode byConfigName(String name) {
            return ConfigNames.find(values(), name);
        }
    }

    public static final Duration DEFAULT_AGING_AFTER = Duration.ofMinutes(2);
    public static final double DEFAULT_BACKGROUND_SHARE = 0.5;
    public static final Duration DEFAULT_INITIAL_RUN_TIME = Duration.ofSeconds(5);

    public SchedulingSettings {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(tenantScope, "tenantScope");
        Objects.requireNonNull(tenantDefaults, "tenantDefaults");
        if (agingAfter.isNegative() || agingAfter.isZero()) {
            throw new IllegalArgumentException("scheduling.agingAfter must be positive, got " + agingAfter);
        }
        if (!(backgroundShare > 0 && backgroundShare <= 1)) {
            throw new IllegalArgumentException("scheduling.backgroundShare must be in (0, 1], got " + backgroundShare);
        }
        if (initialRunTime.isNegative() || initialRunTime.isZero()) {
            throw new IllegalArgumentException("scheduling.initialRunTime must be positive, got " + initialRunTime);
        }
        EnumMap<PriorityClass, ClassPolicy> all = new EnumMap<>(defaultClasses());
        all.putAll(classes);
        classes = Map.copyOf(all);
        tenants = Map.copyOf(tenants);
        rules = List.copyOf(rules);
    }

    /** The defaults: fair, background ages after 2 min and holds at most half the slots while others wait. */
    public static SchedulingSettings defaults() {
        return new SchedulingSettings(Mode.FAIR, DEFAULT_AGING_AFTER, DEFAULT_BACKGROUND_SHARE, Map.of(),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of(), List.of(), DEFAULT_INITIAL_RUN_TIME);
    }

    /**
     * Default budgets (docs/decisions.md): interactive 30 s and normal 2 min, both deferred with a
     * notice (a user would rather wait, told how long, than be turned away); background 30 min,
     * deferred (nobody is told: no user sent it).
     */
    public static Map<PriorityClass, ClassPolicy> defaultClasses() {
        EnumMap<PriorityClass, ClassPolicy> defaults = new EnumMap<>(PriorityClass.class);
        defaults.put(PriorityClass.INTERACTIVE, new ClassPolicy(Duration.ofSeconds(30), OverBudget.DEFER));
        defaults.put(PriorityClass.NORMAL, new ClassPolicy(Duration.ofMinutes(2), OverBudget.DEFER));
        defaults.put(PriorityClass.BACKGROUND, new ClassPolicy(Duration.ofMinutes(30), OverBudget.DEFER));
        return defaults;
    }

    public ClassPolicy policy(PriorityClass priority) {
        return classes.get(priority);
    }

    public TenantLimits limitsOf(String tenant) {
        TenantLimits limits = tenants.get(tenant);
        return limits != null ? limits : tenantDefaults;
    }

    /** This with another mode (the benchmark compares the two on one load). */
    public SchedulingSettings withMode(Mode other) {
        return new SchedulingSettings(other, agingAfter, backgroundShare, classes, tenantScope, tenantDefaults,
                tenants, rules, initialRunTime);
    }
}
