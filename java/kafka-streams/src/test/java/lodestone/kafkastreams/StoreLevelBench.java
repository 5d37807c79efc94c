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

// The store: orders keyed region-RR/order-NNNNNNNNN, in the even regions
// only, their ids 1,000 apart (a sparse id space), a third deleted after
// the fill. Per query round: a short range in an odd region (empty: every
// seek lands at the same region boundary), a range between two
// neighbouring ids of a region (empty: the seek lands next to a random
// key, the reads a range filter saves once the store outgrows its block
// cache), a range over about ten ids, and a get.
public class StoreLevelBench {
  private static final int REGIONS = 20;  // Keys only in even ones.
  private static final int ID_GAP = 1000;
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

  private static String key(final int region, final long id) {
    return String.format("region-%02d/order-%09d", region, id);
  }

  // The i-th order's key.
  private static String order(final int i) {
    return key(2 * (i % (REGIONS / 2)), (long) (i / (REGIONS / 2)) * ID_GAP);
  }

  private static int count(final KeyValueIterator<String, String> it) {
    int found = 0;
    while (it.hasNext()) {
      it.next();
      found++;
    }
    return found;
  }

  private static long tableBytes(final File dir) throws java.io.IOException {
    try (java.util.stream.Stream<java.nio.file.Path> files = Files.walk(dir.toPath())) {
      return files.filter(f -> f.toString().endsWith(".sst"))
          .mapToLong(f -> f.toFile().length()).sum();
    }
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
      final long fillStart = System.nanoTime();
      for (int i = 0; i < KEYS; i++) {
        store.put(order(i), "amount-" + i);
        if ((i + 1) % FLUSH_EVERY == 0) {
          store.flush();
        }
      }
      for (int i = 0; i < KEYS; i += 3) {
        store.delete(order(i));
      }
      store.flush();
      // Puts, deletes and flushes, per key written (compactions run behind).
      final double fillPerKeyUs = (System.nanoTime() - fillStart) / 1e3 / (KEYS + KEYS / 3);
      // Background compactions settle.
      Thread.sleep(Math.max(2000, KEYS / 200));

      final List<Long> emptyRegion = new ArrayList<>();
      final List<Long> gap = new ArrayList<>();
      final List<Long> full = new ArrayList<>();
      final List<Long> gets = new ArrayList<>();
      final java.util.Random random = new java.util.Random(1);
      final long maxId = (long) (KEYS / (REGIONS / 2)) * ID_GAP;
      for (int q = 0; q < QUERIES; q++) {
        final int region = 2 * random.nextInt(REGIONS / 2);
        final long id = (long) random.nextInt(KEYS / (REGIONS / 2)) * ID_GAP;
        long t = System.nanoTime();
        try (KeyValueIterator<String, String> it =
                 store.range(key(region + 1, id), key(region + 1, id + 1000 * ID_GAP))) {
          assertEquals(0, count(it));
        }
        emptyRegion.add(System.nanoTime() - t);
        // Another id: a gap next to the range that follows would read (and
        // warm) that range's blocks wherever no filter answers it.
        final long gapId = (long) random.nextInt(KEYS / (REGIONS / 2)) * ID_GAP;
        t = System.nanoTime();
        try (KeyValueIterator<String, String> it = store.range(
                 key(region, gapId + ID_GAP / 10), key(region, gapId + ID_GAP * 9 / 10))) {
          assertEquals(0, count(it));
        }
        gap.add(System.nanoTime() - t);
        t = System.nanoTime();
        try (KeyValueIterator<String, String> it =
                 store.range(key(region, id), key(region, Math.min(maxId, id + 10 * ID_GAP)))) {
          count(it);
        }
        full.add(System.nanoTime() - t);
        final int k = random.nextInt(KEYS);
        t = System.nanoTime();
        final String value = store.get(order(k));
        gets.add(System.nanoTime() - t);
        assertEquals(k % 3 == 0 ? null : "amount-" + k, value);
      }
      final String json = String.format(
          "{\"variant\": \"%s\", \"keys\": %d, \"table_bytes\": %d, \"fill_per_key_us\": %.3f, "
              + "\"empty_region_p50_us\": %.2f, \"empty_region_p99_us\": %.2f, "
              + "\"gap_p50_us\": %.2f, \"gap_p99_us\": %.2f, "
              + "\"range_p50_us\": %.2f, \"range_p99_us\": %.2f, "
              + "\"get_p50_us\": %.2f, \"get_p99_us\": %.2f}%n",
          label, KEYS, tableBytes(stateDir), fillPerKeyUs, quantile(emptyRegion, 0.5),
          quantile(emptyRegion, 0.99), quantile(gap, 0.5), quantile(gap, 0.99),
          quantile(full, 0.5), quantile(full, 0.99), quantile(gets, 0.5), quantile(gets, 0.99));
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
