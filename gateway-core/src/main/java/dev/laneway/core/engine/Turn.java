package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.Route;
import dev.laneway.core.agent.MessageFiles;
import java.util.ArrayList;
import java.util.List;

/**
 * What one run answers: its messages, the prompt the agent gets, where the reply goes, and how the
 * messages end once the run has answered.
 *
 * @param items       the messages; empty for a turn that carries only an overflow summary
 * @param lead        the item naming the run's sender, kind of session and queue mode: the last of
 *                    {@code items}, or the last dropped item of an overflow-only turn
 * @param prompt      the text for the agent
 * @param route       where the reply goes
 * @param disposition how the messages end when the run answers ({@code RAN} or {@code COLLECTED})
 */
record Turn(List<QueuedItem> items, QueuedItem lead, String prompt, Route route, Disposition disposition) {

    Turn {
        items = List.copyOf(items);
    }

    /** One message run on its own, as it came (an idle session's message, an interrupting one). */
    static Turn alone(QueuedItem item) {
        return new Turn(List.of(item), item, PromptFormatter.agentText(item), item.route(), Disposition.RAN);
    }

    /** The attachments of its messages, in the order of their markers in the prompt (docs/behaviour.md §15.3). */
    List<MessageFiles> files() {
        List<MessageFiles> all = null;
        for (QueuedItem item : items) { // a loop, not a stream: every run asks, and most have none
            List<MessageFiles> files = item.files();
            if (!files.isEmpty()) {
                if (all == null) {
                    all = new ArrayList<>(files.size());
                }
                all.addAll(files);
            }
        }
        return all == null ? List.of() : List.copyOf(all);
    }

    /**
     * The turn a drain took: an overflow summary no queued item of its audience can carry (replying
     * to the last dropped message), else a collect batch (replying to its last message) or one
     * followup item, either with its audience's summary.
     */
    static Turn drained(FollowupQueue.Drain drain) {
        List<QueuedItem> batch = drain.batch();
        if (batch.isEmpty()) {
            QueuedItem lead = drain.overflow().lastDropped;
            return new Turn(batch, lead, PromptFormatter.overflowOnly(drain.summary()), lead.route(), Disposition.RAN);
        }
        QueuedItem head = batch.get(0);
        if (drain.collect()) {
            QueuedItem last = batch.get(batch.size() - 1);
            String prompt = PromptFormatter.collect(batch, drain.summary(), !head.last().direct());
            return new Turn(batch, last, prompt, last.route(), Disposition.COLLECTED);
        }
        return new Turn(batch, head, PromptFormatter.followup(head, drain.summary()), head.route(), Disposition.RAN);
    }
}
