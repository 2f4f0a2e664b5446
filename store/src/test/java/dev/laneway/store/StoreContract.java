package dev.laneway.store;

import dev.laneway.core.testing.ManualTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The base of the store contract suite: the behaviour every {@link DurableStore} keeps, written once
 * and run against each store (SQLite here, Redis in {@code store-redis}). A store's test class
 * extends a contract class and says how to reach the store ({@link #subject()}); the tests use only
 * the SPI and {@link StoreUnderTest}.
 */
public abstract class StoreContract {

    protected final ManualTime clock = Fixtures.clock();
    protected StoreUnderTest subject;
    private final List<DurableStore> opened = new ArrayList<>();

    /** The store under test, on fresh data for this test. */
    protected abstract StoreUnderTest subject();

    @BeforeEach
    void openSubject() {
        subject = subject();
    }

    @AfterEach
    void closeSubject() throws Exception {
        opened.forEach(DurableStore::close);
        subject.close();
    }

    /** Opens the store with the test options (manual clock). */
    protected DurableStore open() {
        return open(Fixtures.options(clock));
    }

    protected DurableStore open(StoreOptions options) {
        DurableStore store = subject.open(options);
        opened.add(store);
        return store;
    }
}
