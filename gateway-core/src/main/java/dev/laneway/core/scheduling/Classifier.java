package dev.laneway.core.scheduling;

import dev.laneway.core.InboundMessage;
import java.util.List;

/**
 * Gives a message its priority class (docs/behaviour.md §11.1): the first configured rule that
 * matches wins; without one, DMs, mentions, replies to the bot and slash commands are interactive,
 * other group traffic is normal, and scheduled jobs are background. Immutable and thread-safe.
 */
public final class Classifier {

    private final List<ClassRule> rules;

    public Classifier(List<ClassRule> rules) {
        this.rules = List.copyOf(rules);
    }

    public PriorityClass classify(InboundMessage message) {
        MessageKind kind = MessageKind.of(message);
        for (int i = 0; i < rules.size(); i++) { // indexed: no iterator per message
            ClassRule rule = rules.get(i);
            if (rule.matches(message, kind)) {
                return rule.priority();
            }
        }
        return byDefault(kind);
    }

    static PriorityClass byDefault(MessageKind kind) {
        return switch (kind) {
            case DM, MENTION, COMMAND -> PriorityClass.INTERACTIVE;
            case GROUP -> PriorityClass.NORMAL;
            case SCHEDULE -> PriorityClass.BACKGROUND;
        };
    }
}
