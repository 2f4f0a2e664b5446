package dev.laneway.core.testing;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.engine.DispositionListener;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records every disposition, to check that each message ends exactly once. */
public final class RecordingListener implements DispositionListener {

    private final List<Entry> entries = new CopyOnWriteArrayList<>();

    @Override
    public void recorded(InboundMessage message, Disposition disposition) {
        entries.add(new Entry(message, disposition));
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The disposition of the message with this platform id; fails if it has none or several. */
    public Disposition of(String platformMessageId) {
        List<Disposition> found = new ArrayList<>();
        entries.stream().filter(e -> platformMessageId.equals(e.message().platformMessageId()))
                .forEach(e -> found.add(e.disposition()));
        if (found.size() != 1) {
            throw new AssertionError("message " + platformMessageId + " has dispositions " + found);
        }
        return found.get(0);
    }

    public Map<Disposition, Integer> counts() {
        Map<Disposition, Integer> counts = new EnumMap<>(Disposition.class);
        entries.forEach(e -> counts.merge(e.disposition(), 1, Integer::sum));
        return counts;
    }

    public int count(Disposition disposition) {
        return counts().getOrDefault(disposition, 0);
    }

    public int size() {
        return entries.size();
    }

    /** One recorded disposition. */
    public record Entry(InboundMessage message, Disposition disposition) {
    }
}
