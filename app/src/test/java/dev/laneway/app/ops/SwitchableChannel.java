package dev.laneway.app.ops;

import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.testing.FakeChannel;

/** A {@link FakeChannel} whose connection state a test can flip, for readiness checks. */
final class SwitchableChannel implements ChannelAdapter {

    final FakeChannel fake;
    private volatile boolean connected = true;

    SwitchableChannel(String name) {
        this.fake = new FakeChannel(name);
    }

    void connected(boolean value) {
        connected = value;
    }

    @Override
    public boolean connected() {
        return connected;
    }

    @Override
    public String name() {
        return fake.name();
    }

    @Override
    public ChannelCapabilities capabilities() {
        return fake.capabilities();
    }

    @Override
    public void start(InboundSink sink) throws java.io.IOException {
        fake.start(sink);
    }

    @Override
    public void send(Route route, String text) throws Exception {
        fake.send(route, text);
    }

    @Override
    public void stop() {
        fake.stop();
    }
}
