package dev.laneway.app.ops;

import dev.laneway.core.channel.ChannelAdapter;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Channel name -> connected now: the gateway has started the channel (a failed start being retried
 * is not connected) and the adapter says it is connected, asked on every call; a throwing adapter
 * is "not connected".
 */
public final class ChannelConnectivity {

    private static final Logger log = LoggerFactory.getLogger(ChannelConnectivity.class);

    private ChannelConnectivity() {
    }

    /**
     * A live view, in the given order.
     *
     * @param started whether the gateway has started the named channel ({@code Gateway::channelStarted})
     */
    public static Supplier<Map<String, Boolean>> of(Collection<? extends ChannelAdapter> channels,
                                                    Predicate<String> started) {
        List<ChannelAdapter> adapters = List.copyOf(channels);
        return () -> {
            Map<String, Boolean> connected = new LinkedHashMap<>();
            adapters.forEach(adapter -> connected.put(adapter.name(), started.test(adapter.name()) && connected(adapter)));
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
