package dev.laneway.core.store;

/** {@link InMemorySessionStore} keeps the fires contract. */
class InMemorySessionStoreFiresTest extends SessionStoreFiresContract {

    @Override
    protected SessionStore store() {
        return new InMemorySessionStore();
    }
}
