package dev.laneway.core.scheduling;

import java.time.Duration;
import java.util.Objects;

/**
 * A priority class's wait budget and what happens to a message expected to wait longer.
 *
 * @param budget     the longest expected wait for {@code main} a message of the class accepts silently
 * @param overBudget what happens when the estimate exceeds it
 */
public record ClassPolicy(Duration budget, OverBudget overBudget) {

    public ClassPolicy {
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(overBudget, "overBudget");
        if (budget.isNegative()) {
            throw new IllegalArgumentException("a class's wait budget must not be negative, got " + budget);
        }
    }
}
