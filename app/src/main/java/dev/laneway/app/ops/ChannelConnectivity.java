package dev.laneway.app.ops;

import dev.laneway.core.channel.ChannelAdapter;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Channel name -> connected now, asked of each adapter on every call; a throwing adapter is "not connected". */
public final class ChannelConnectivity {

    private static final Logger log = LoggerFactory.getLogger(ChannelConnectivity.class);

    private ChannelConnectivity() {
    }

    /** A live view of the adapters' {@link ChannelAdapter#connected()}, in the given order. */
    public static Supplier<Map<String, Boolean>> of(Collection<? extends ChannelAdapter> channels) {
        List<ChannelAdapter> adapters = List.copyOf(channels);
        return () -> {
            Map<String, Boolean> connected = new LinkedHashMap<>();
            adapters.forEach(adapter -> connected.put(adapter.name(), connected(adapter)));
            return connected;
        };
    }

    private static boolean connected(ChannelAdapter adapter) {
        try {
            return adapter.connected();
        } catch (RuntimeException e) {
            log.warn("channel {} failed to report its connection state: {}", adapter.name(), e.toString());
            return false;
        }
    }
}
