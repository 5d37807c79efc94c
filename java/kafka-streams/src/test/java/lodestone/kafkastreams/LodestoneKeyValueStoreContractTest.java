// Kafka Streams' own key-value store contract (AbstractKeyValueStoreTest,
// from kafka-streams' test jar: puts, deletes, ranges, reverse ranges,
// prefix scans, restores, closed stores and iterators) run against
// LodestoneKeyValueStore, plus what restores do with initial puts.

package lodestone.kafkastreams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.AbstractKeyValueStoreTest;
import org.apache.kafka.streams.state.internals.MeteredKeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.junit.jupiter.api.Test;

public class LodestoneKeyValueStoreContractTest extends AbstractKeyValueStoreTest {
  // verify_initial_puts refuses an initial put over a visible value, so a
  // restore that wrote one where it must not fails the test.
  static final String OPTIONS = LodestoneStores.DEFAULT_OPTIONS + ";verify_initial_puts=true";

  @SuppressWarnings("unchecked")
  @Override
  protected <K, V> KeyValueStore<K, V> createKeyValueStore(final StateStoreContext context) {
    final StoreBuilder<KeyValueStore<K, V>> builder = Stores.keyValueStoreBuilder(
        LodestoneStores.persistentKeyValueStore("my-store", OPTIONS),
        (Serde<K>) context.keySerde(), (Serde<V>) context.valueSerde());
    final KeyValueStore<K, V> built = builder.build();
    built.init(context, built);
    return built;
  }

  // The store under the builder's metering and change-logging layers.
  private LodestoneKeyValueStore inner() {
    StateStore inner = store;
    while (inner instanceof WrappedStateStore) {
      inner = ((WrappedStateStore<?, ?, ?>) inner).wrapped();
    }
    return (LodestoneKeyValueStore) inner;
  }

  // A changelog that writes every key, overwrites half of them and deletes
  // the other half, restored into an empty store: each key's first record
  // is an initial put, so the deleted half leaves nothing behind when the
  // store flushes (initial put and delete both dropped), and the overwrites
  // are plain puts (verify_initial_puts would refuse them otherwise).
  @Test
  public void restoreIntoAnEmptyStoreWritesFirstRecordsAsInitialPuts() {
    store.close();
    for (int i = 0; i < 100; i++) {
      driver.addEntryToRestoreLog(i, "first-" + i);
    }
    for (int i = 0; i < 100; i++) {
      driver.addEntryToRestoreLog(i, i < 50 ? "second-" + i : null);
    }
    store = createKeyValueStore(driver.context());
    context.restore(store.name(), driver.restoredEntries());
    for (int i = 0; i < 100; i++) {
      if (i < 50) {
        assertEquals("second-" + i, store.get(i));
      } else {
        assertNull(store.get(i));
      }
    }
    store.flush();
    final String tables = inner().property("rocksdb.aggregated-table-properties");
    assertTrue(tables.contains("# deletions=0;"), tables);
    assertTrue(tables.contains("# entries=50;"), tables);
    assertTrue(store instanceof MeteredKeyValueStore);
  }

  // A store restored into, then written by processing (a standby promoted
  // to active), then restored into again (recycled back to a standby): the
  // keys processing wrote are visible, so the second restore's records are
  // plain puts (verify_initial_puts refuses an initial put over them).
  @Test
  public void restoreAfterProcessingWritesPlainPuts() {
    store.close();
    driver.addEntryToRestoreLog(1, "restored-1");
    store = createKeyValueStore(driver.context());
    context.restore(store.name(), driver.restoredEntries());
    store.put(2, "processed-2");
    driver.clear();
    driver.addEntryToRestoreLog(2, "restored-2");
    driver.addEntryToRestoreLog(3, "restored-3");
    context.restore(store.name(), driver.restoredEntries());
    assertEquals("restored-1", store.get(1));
    assertEquals("restored-2", store.get(2));
    assertEquals("restored-3", store.get(3));
  }

  private static List<Integer> keys(final KeyValueIterator<Integer, String> it) {
    final List<Integer> keys = new ArrayList<>();
    it.forEachRemaining(entry -> keys.add(entry.key));
    return keys;
  }

  private static List<Integer> between(final int from, final int to, final boolean forward) {
    final List<Integer> keys = new ArrayList<>();
    for (int k = from; k <= to; k++) {
      keys.add(forward ? k : from + to - k);
    }
    return keys;
  }

  // Scans reuse the read options of closed ones (ScanReadOptions): bounds
  // of every shape in turn, longer ones replacing the kept buffers, more
  // scans open at once than the store keeps options for, each seeing
  // exactly its own range.
  @Test
  public void scansReusingReadOptionsSeeTheirOwnBounds() {
    for (int k = 0; k < 100; k++) {
      store.put(k, "v" + k);
    }
    final List<KeyValueIterator<Integer, String>> open = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      for (int lo = 0; lo < 100; lo += 7) {
        final int hi = Math.min(99, lo + round * 5);
        try (KeyValueIterator<Integer, String> it = store.range(lo, hi)) {
          assertEquals(between(lo, hi, true), keys(it));
        }
        try (KeyValueIterator<Integer, String> it = store.reverseRange(lo, hi)) {
          assertEquals(between(lo, hi, false), keys(it));
        }
        try (KeyValueIterator<Integer, String> it = store.range(null, hi)) {
          assertEquals(between(0, hi, true), keys(it));
        }
        try (KeyValueIterator<Integer, String> it = store.range(lo, null)) {
          assertEquals(between(lo, 99, true), keys(it));
        }
        try (KeyValueIterator<Integer, String> it =
                 store.prefixScan("x".repeat(100 + 100 * round), new StringSerializer())) {
          assertFalse(it.hasNext());
        }
        try (KeyValueIterator<Integer, String> it = store.all()) {
          assertEquals(between(0, 99, true), keys(it));
        }
      }
      for (int i = 0; i < 10; i++) {
        open.add(store.range(10 * i, 10 * i + 4));
      }
      for (int i = 0; i < 10; i++) {
        assertEquals(between(10 * i, 10 * i + 4, true), keys(open.get(i)));
      }
      open.forEach(KeyValueIterator::close);
      open.clear();
    }
  }

  // An options string RocksDB refuses: init fails with the store's name
  // and the string, and nothing stays open (the same store opens after).
  @Test
  public void badLodestoneOptionsFailInitWithTheirText() {
    final LodestoneKeyValueStore bad = new LodestoneKeyValueStore("checked", "no_such_option=1");
    final ProcessorStateException e = assertThrows(ProcessorStateException.class,
        () -> bad.init(driver.context(), bad));
    assertTrue(e.getMessage().contains("checked") && e.getMessage().contains("no_such_option"),
        e.getMessage());
    final LodestoneKeyValueStore good = new LodestoneKeyValueStore("checked", OPTIONS);
    good.init(driver.context(), good);
    good.close();
  }
}
