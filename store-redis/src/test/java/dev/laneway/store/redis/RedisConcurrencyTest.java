package dev.laneway.store.redis;

import dev.laneway.store.ConcurrencyContract;
import dev.laneway.store.StoreUnderTest;

/** The concurrency contract on Redis (a throwaway redis-server). */
class RedisConcurrencyTest extends ConcurrencyContract {

    @Override
    protected StoreUnderTest subject() {
        return new RedisUnderTest();
    }
}
