// What a store's reads cost without Kafka Streams' interactive-query
// layers in front of them: the calls a processor makes (a range join, a
// lookup) on one store. Skipped unless -Dbench=true; run by
// java/kafka-streams/store_bench.sh, which compares Kafka Streams' store on
// stock rocksdbjni, Kafka Streams' store on the Lodestone jar with
// Lodestone's options, and Lodestone's store.

package lodestone.kafkastreams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;

public class StoreLevelBench {
  private static final int REGIONS = 40;  // Keys only in even ones.
  private static final int KEYS = Integer.getInteger("bench.keys", 400000);
  private static final int FLUSH_EVERY = KEYS / 40;  // Commits flush the store.
  private static final int QUERIES = 20000;

  @TempDir File stateDir;

  /** Kafka Streams' store on the Lodestone jar: the options docs/bindings.md gives. */
  public static class LodestoneOptionsSetter implements RocksDBConfigSetter {
    @Override
    public void setConfig(final String storeName, final Options options,
        final Map<String, Object> configs) {
      options.setCompactionStyle(org.rocksdb.CompactionStyle.LEVEL);
      options.setLevelCompactionDynamicLevelBytes(true);
      try {
        org.rocksdb.LodestoneOptions.apply(options, LodestoneStores.DEFAULT_OPTIONS);
      } catch (final org.rocksdb.RocksDBException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void close(final String storeName, final Options options) {}
  }

  private static boolean lodestoneJar() {
    try {
      Class.forName("org.rocksdb.LodestoneOptions");
      return true;
    } catch (final ClassNotFoundException e) {
      return false;
    }
  }

  private static String key(final int region, final int n) {
    return String.format("region-%02d/order-%07d", region, n);
  }

  private static double quantile(final List<Long> nanos, final double q) {
    Collections.sort(nanos);
    return nanos.get((int) Math.min(nanos.size() - 1, Math.floor(q * nanos.size()))) / 1e3;
  }

  @Test
  public void reads() throws Exception {
    assumeTrue(Boolean.getBoolean("bench"), "-Dbench=true runs it");
    final String variant = System.getProperty("bench.variant", "stock");
    // The stores variant with another options string (an ablation), under
    // its own label in the results.
    final String storeOptions =
        System.getProperty("bench.options", LodestoneStores.DEFAULT_OPTIONS);
    final String label = System.getProperty("bench.label", variant);
    assertEquals(!variant.equals("stock"), lodestoneJar(),
        "variant " + variant + " on the wrong rocksdbjni");
    final Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    if (variant.equals("lodestone")) {
      config.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, LodestoneOptionsSetter.class);
    }
    final MockProcessorContext<String, String> context =
        new MockProcessorContext<>(config, new TaskId(0, 0), stateDir);
    final KeyValueStore<String, String> store = Stores.keyValueStoreBuilder(
        variant.equals("stores")
            ? LodestoneStores.persistentKeyValueStore("orders", storeOptions)
                                 : Stores.persistentKeyValueStore("orders"),
        Serdes.String(), Serdes.String())
        .withLoggingDisabled()
        .withCachingDisabled()
        .build();
    store.init(context.getStateStoreContext(), store);
    try {
      for (int i = 0; i < KEYS; i++) {
        store.put(key(2 * (i % (REGIONS / 2)), i), "amount-" + i);
        if ((i + 1) % FLUSH_EVERY == 0) {
          store.flush();
        }
      }
      for (int i = 0; i < KEYS; i += 3) {
        store.delete(key(2 * (i % (REGIONS / 2)), i));
      }
      store.flush();
      // Background compactions settle.
      Thread.sleep(Math.max(2000, KEYS / 200));

      final List<Long> empty = new ArrayList<>();
      final List<Long> full = new ArrayList<>();
      final List<Long> gets = new ArrayList<>();
      final java.util.Random random = new java.util.Random(1);
      for (int q = 0; q < QUERIES; q++) {
        // A short range inside an odd (empty) region, and one inside an
        // even region: what a range join asks per record.
        final int n = random.nextInt(KEYS);
        final int region = 2 * random.nextInt(REGIONS / 2);
        long t = System.nanoTime();
        int found = 0;
        try (KeyValueIterator<String, String> it =
                 store.range(key(region + 1, n), key(region + 1, n + 1000))) {
          while (it.hasNext()) {
            it.next();
            found++;
          }
        }
        empty.add(System.nanoTime() - t);
        assertEquals(0, found);
        t = System.nanoTime();
        try (KeyValueIterator<String, String> it =
                 store.range(key(region, n), key(region, n + 200))) {
          while (it.hasNext()) {
            it.next();
          }
        }
        full.add(System.nanoTime() - t);
        final int k = random.nextInt(KEYS);
        t = System.nanoTime();
        final String value = store.get(key(2 * (k % (REGIONS / 2)), k));
        gets.add(System.nanoTime() - t);
        assertEquals(k % 3 == 0 ? null : "amount-" + k, value);
      }
      final String json = String.format(
          "{\"variant\": \"%s\", \"keys\": %d, \"empty_range_p50_us\": %.2f, "
              + "\"empty_range_p99_us\": %.2f, \"range_p50_us\": %.2f, \"range_p99_us\": %.2f, "
              + "\"get_p50_us\": %.2f, \"get_p99_us\": %.2f}%n",
          label, KEYS, quantile(empty, 0.5), quantile(empty, 0.99), quantile(full, 0.5),
          quantile(full, 0.99), quantile(gets, 0.5), quantile(gets, 0.99));
      System.out.print(json);
      final String out = System.getProperty("bench.results");
      if (out != null) {
        Files.writeString(Paths.get(out), json);
      }
    } finally {
      store.close();
    }
  }
}
