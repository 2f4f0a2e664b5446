package dev.laneway.channels.slack;

import java.time.Duration;

/** Waits; production sleeps the calling (virtual) thread, tests record or advance a manual clock. */
@FunctionalInterface
interface Sleeper {

    Sleeper SYSTEM = duration -> Thread.sleep(duration);

    void sleep(Duration duration) throws InterruptedException;
}
