// Kafka Streams state stores (TopologyTestDriver: real RocksDB stores, no
// broker) on whichever rocksdbjni the build put on the class path. With
// -Dlodestone.expected=true the Lodestone features must show activity; with
// false (stock rocksdbjni) Lodestone's tickers must not exist, so a stray
// library of the other kind fails the run.

package lodestone.kafkastreams;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class StateStoresOnLodestoneTest {
  private static final boolean LODESTONE = Boolean.getBoolean("lodestone.expected");

  @Rule public TemporaryFolder stateDir = new TemporaryFolder();

  private Properties config(final String application) {
    final Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, application);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.getRoot().getAbsolutePath());
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    // Every update reaches RocksDB (no record cache in front of it).
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, RecordingConfigSetter.class);
    return p;
  }

  @After
  public void closeStatistics() {
    RecordingConfigSetter.STATISTICS.values().forEach(s -> s.close());
    RecordingConfigSetter.STATISTICS.clear();
    RecordingConfigSetter.APPLIED.clear();
  }

  private static void assertLodestone(final String store, final String ticker) {
    assertEquals("Lodestone options applied to " + store, LODESTONE,
        RecordingConfigSetter.APPLIED.get(store));
    final long count = RecordingConfigSetter.ticker(store, ticker);
    if (LODESTONE) {
      assertTrue(ticker + " = " + count + " on " + store + "; statistics:\n"
              + RecordingConfigSetter.STATISTICS.get(store),
          count > 0);
    } else {
      assertEquals(ticker + " exists on stock rocksdbjni", -1, count);
    }
  }

  @Test
  public void wordCountIntoAPersistentStore() {
    final StreamsBuilder builder = new StreamsBuilder();
    builder.<String, String>stream("lines")
        .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+")))
        .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
        .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("word-counts"));

    final Map<String, Long> expected = new TreeMap<>();
    try (final TopologyTestDriver driver =
             new TopologyTestDriver(builder.build(), config("word-count"))) {
      final TestInputTopic<String, String> lines =
          driver.createInputTopic("lines", new StringSerializer(), new StringSerializer());
      for (int i = 0; i < 300; i++) {
        final String line = "the quick fox " + i % 7 + " jumps " + i % 13;
        lines.pipeInput("k" + i, line);
        for (final String w : line.split("\\W+")) {
          expected.merge(w, 1L, Long::sum);
        }
      }
      final KeyValueStore<String, Long> counts = driver.getKeyValueStore("word-counts");
      for (int round = 0; round < 3; round++) {
        for (final Map.Entry<String, Long> e : expected.entrySet()) {
          assertEquals(e.getKey(), e.getValue(), counts.get(e.getKey()));
        }
        assertNull(counts.get("absent"));
      }
      // Each commit flushed the store, so its gets reach tables, where the
      // location cache remembers where each key was.
      assertLodestone("word-counts", "rocksdb.location.cache.hit");
    }
  }

  @Test
  public void ktableWithDeletesAndRangeScans() {
    final StreamsBuilder builder = new StreamsBuilder();
    builder.table("users", Consumed.with(Serdes.String(), Serdes.String()),
        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("users"));

    final Properties config = config("users");
    config.put(RecordingConfigSetter.KEEP_L0_FILES, "true");
    try (final TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config)) {
      final TestInputTopic<String, String> users =
          driver.createInputTopic("users", new StringSerializer(), new StringSerializer());
      for (int i = 0; i < 300; i++) {
        users.pipeInput(String.format("user-%03d", i), "profile-" + i);
      }
      // Tombstones: the KTable deletes users 100..249.
      for (int i = 100; i < 250; i++) {
        users.pipeInput(String.format("user-%03d", i), (String) null);
      }
      final KeyValueStore<String, String> store = driver.getKeyValueStore("users");
      final List<String> want = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        if (i < 100 || i >= 250) {
          want.add(String.format("user-%03d", i));
        }
      }
      for (int round = 0; round < 3; round++) {
        final List<String> got = new ArrayList<>();
        try (final KeyValueIterator<String, String> it = store.range("user-000", "user-299")) {
          while (it.hasNext()) {
            final KeyValue<String, String> kv = it.next();
            assertEquals("profile-" + Integer.parseInt(kv.key.substring(5)), kv.value);
            got.add(kv.key);
          }
        }
        assertEquals(want, got);
        long all = 0;
        try (final KeyValueIterator<String, String> it = store.all()) {
          while (it.hasNext()) {
            it.next();
            all++;
          }
        }
        assertEquals(want.size(), all);
      }
      assertNull(store.get("user-150"));
      assertEquals("profile-99", store.get("user-099"));
      // The scans walked the run of deleted users and converted it.
      assertLodestone("users", "rocksdb.read.path.range.tombstones.inserted");
    }
  }
}
