package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.SessionKey;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.scheduling.ClassPolicy;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.Classifier;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.scheduling.OverBudget;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingObserver;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.scheduling.Tenants;
import dev.laneway.core.scheduling.WaitEstimate;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

/**
 * The engine's side of scheduling (docs/behaviour.md §11): what class and tenant a run claims
 * {@code main} with, and whether a message that would start a run waits silently, waits told where
 * it stands ({@code defer}), goes to its agent's fallback ({@code degrade}), or is turned away
 * ({@code shed}; also when its tenant is at its pending cap). Thread-safe: the classifier and
 * tenants are immutable, the scheduler is thread-safe.
 */
final class RunScheduling {

    private final SchedulingSettings settings;
    private final Classifier classifier;
    private final Tenants tenants;
    final MainScheduler main;

    RunScheduling(SchedulingSettings settings, int cap, InstantSource clock, Duration warnAfter, GatewayObserver observer) {
        this.settings = settings;
        this.classifier = new Classifier(settings.rules());
        this.tenants = new Tenants(settings.tenantScope());
        this.main = new MainScheduler(settings, cap, clock, warnAfter, new SchedulingObserver() {
            @Override
            public void granted(PriorityClass asked, PriorityClass served, String tenant, Duration waited,
                                Duration estimated) {
                observer.laneWaited(Lanes.MAIN, waited); // main's waits, as every lane's
                observer.granted(asked, served, tenant, waited, estimated);
            }

            @Override
            public void promoted(PriorityClass from, PriorityClass to) {
                observer.promoted(from, to);
            }
        });
    }

    PriorityClass classOf(InboundMessage message) {
        return classifier.classify(message);
    }

    /** The claim of a run of {@code session} answering {@code turn}: its most urgent message's class, its lead's tenant. */
    Claim claimFor(SessionKey session, Turn turn) {
        return claimFor(session, turn, null);
    }

    /**
     * As {@link #claimFor(SessionKey, Turn)}, reusing {@code previous}, the claim of the session's
     * last run, when its tenant is this turn's lead's too (most runs of a session: no tenant id
     * built per run) and, for the claim itself, when its class is the same.
     */
    Claim claimFor(SessionKey session, Turn turn, Claim previous) {
        InboundMessage lead = turn.lead().last();
        PriorityClass priority = classOf(lead);
        List<QueuedItem> items = turn.items();
        for (int i = 0; i < items.size() && priority != PriorityClass.INTERACTIVE; i++) {
            List<Ticket> tickets = items.get(i).tickets();
            for (int j = 0; j < tickets.size(); j++) {
                priority = priority.mostUrgent(classOf(tickets.get(j).message()));
            }
        }
        if (previous != null && tenants.isTenantOf(previous.tenant(), lead)) {
            return previous.withPriority(priority); // keeps the scheduler's tenant it resolved to (D237)
        }
        return new Claim(priority, tenants.tenantOf(lead), session.value());
    }

    /** What happens to a message that would start a run of {@code session} now (see the class comment). */
    Verdict admit(InboundMessage message, SessionKey session) {
        if (main.freeNow()) {
            return Verdict.PROCEED; // the common case: no claim, no estimate
        }
        Claim claim = new Claim(classOf(message), tenants.tenantOf(message), session.value());
        if (!main.mayWait(claim)) {
            return new Verdict(claim, OverBudget.SHED, main.estimate(claim), Reason.TENANT_PENDING_CAP);
        }
        WaitEstimate estimate = main.estimate(claim);
        ClassPolicy policy = settings.policy(claim.priority());
        if (estimate.expected().compareTo(policy.budget()) <= 0) {
            return new Verdict(claim, null, estimate, null);
        }
        return new Verdict(claim, policy.overBudget(), estimate, Reason.OVER_BUDGET);
    }

    /** Why a message was deferred or shed (a metrics label). */
    enum Reason {
        OVER_BUDGET("over_budget"), TENANT_PENDING_CAP("tenant_pending_cap");

        final String id;

        Reason(String id) {
            this.id = id;
        }
    }

    /**
     * The admission of one message.
     *
     * @param claim    what its run would claim
     * @param action   null: it waits silently; else what happens to it
     * @param estimate where it would stand
     * @param reason   why, when {@code action} is set
     */
    record Verdict(Claim claim, OverBudget action, WaitEstimate estimate, Reason reason) {

        /** A slot is free: the message goes ahead without a word. */
        static final Verdict PROCEED = new Verdict(null, null, WaitEstimate.NOW, null);

        boolean shed() {
            return action == OverBudget.SHED;
        }

        /**
         * Defer, or degrade (which defers a message whose agent has no fallback; one with a fallback
         * starts there instead, docs/behaviour.md §13.3).
         */
        boolean deferred() {
            return action == OverBudget.DEFER || action == OverBudget.DEGRADE;
        }
    }
}
