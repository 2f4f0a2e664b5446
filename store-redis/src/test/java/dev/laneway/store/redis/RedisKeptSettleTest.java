package dev.laneway.store.redis;

import dev.laneway.store.KeptSettleContract;
import dev.laneway.store.StoreUnderTest;

/** The kept-settle contract on Redis: Redis refuses writes when out of memory (maxmemory 1). */
class RedisKeptSettleTest extends KeptSettleContract {

    @Override
    protected StoreUnderTest subject() {
        return new RedisUnderTest();
    }
}
