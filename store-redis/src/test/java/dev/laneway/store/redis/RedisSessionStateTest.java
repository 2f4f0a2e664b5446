package dev.laneway.store.redis;

import dev.laneway.store.SessionStateContract;
import dev.laneway.store.StoreUnderTest;

/** The session state contract on Redis (a throwaway redis-server). */
class RedisSessionStateTest extends SessionStateContract {

    @Override
    protected StoreUnderTest subject() {
        return new RedisUnderTest();
    }
}
