// Lodestone's stores inside a topology (TopologyTestDriver: real stores,
// no broker; it commits, and so flushes every store, after each record):
// results equal to a model, and each feature shown acting by its ticker.

package lodestone.kafkastreams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class LodestoneStoresTopologyTest {
  @TempDir File stateDir;

  private Properties config(final String application) {
    return config(application, StatisticsConfigSetter.class);
  }

  private Properties config(final String application, final Class<?> configSetter) {
    final Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, application);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.getAbsolutePath());
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    // Every update reaches the store (no record cache in front of it).
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, configSetter);
    return p;
  }

  @AfterEach
  public void closeStatistics() {
    StatisticsConfigSetter.STATISTICS.values().forEach(s -> s.close());
    StatisticsConfigSetter.STATISTICS.clear();
  }

  private static String orderKey(final int region, final int order) {
    return String.format("region-%02d/order-%05d", region, order);
  }

  private static List<String> drain(final KeyValueIterator<String, String> it) {
    final List<String> out = new ArrayList<>();
    try (it) {
      while (it.hasNext()) {
        final KeyValue<String, String> kv = it.next();
        out.add(kv.key + "=" + kv.value);
      }
    }
    return out;
  }

  private static List<String> modelRange(
      final TreeMap<String, String> model, final String from, final String to) {
    final List<String> out = new ArrayList<>();
    model.subMap(from, true, to, true).forEach((k, v) -> out.add(k + "=" + v));
    return out;
  }

  // A KTable of orders in even regions only: interactive range queries per
  // region, most of them over regions with no orders (a sparse key space),
  // return what a model holds, and the tables' range filters answer them.
  @Test
  public void rangeQueriesOverASparseKeySpace() {
    rangeQueriesOverASparseKeySpace(StatisticsConfigSetter.class);
  }

  // The same with an application's setter that sets the table config back
  // (Kafka Streams' documented way to change a store's table options): the
  // range filter, which the Lodestone options string adds to the table
  // config natively, must survive it.
  @Test
  public void rangeQueriesWithASetterThatResetsTheTableConfig() {
    rangeQueriesOverASparseKeySpace(TableConfigSetter.class);
  }

  private void rangeQueriesOverASparseKeySpace(final Class<?> configSetter) {
    final StreamsBuilder builder = new StreamsBuilder();
    builder.table("orders", Consumed.with(Serdes.String(), Serdes.String()),
        Materialized.<String, String>as(LodestoneStores.persistentKeyValueStore("orders")));
    final TreeMap<String, String> model = new TreeMap<>();
    try (TopologyTestDriver driver =
             new TopologyTestDriver(builder.build(), config("orders", configSetter))) {
      final TestInputTopic<String, String> orders =
          driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
      for (int i = 0; i < 400; i++) {
        final String key = orderKey(2 * (i % 10), i);
        orders.pipeInput(key, "amount-" + i);
        model.put(key, "amount-" + i);
      }
      for (int i = 0; i < 400; i += 3) {  // Cancelled orders: KTable tombstones.
        final String key = orderKey(2 * (i % 10), i);
        orders.pipeInput(key, (String) null);
        model.remove(key);
      }
      final KeyValueStore<String, String> store = driver.getKeyValueStore("orders");
      for (int round = 0; round < 3; round++) {
        for (int region = 0; region < 20; region++) {
          final String from = orderKey(region, 0);
          final String to = orderKey(region, 99999);
          final List<String> want = modelRange(model, from, to);
          assertEquals(want, drain(store.range(from, to)), "region " + region);
          final List<String> reversed = new ArrayList<>(want);
          java.util.Collections.reverse(reversed);
          assertEquals(reversed, drain(store.reverseRange(from, to)), "region " + region);
          assertEquals(region % 2 == 1, want.isEmpty(), "region " + region);
        }
        for (int i = 0; i < 400; i += 7) {
          final String key = orderKey(2 * (i % 10), i);
          assertEquals(model.get(key), store.get(key));
        }
        assertNull(store.get(orderKey(1, 1)));
      }
      final long empty = StatisticsConfigSetter.ticker("orders", "rocksdb.craft.filter.empty");
      final long hits = StatisticsConfigSetter.ticker("orders", "rocksdb.location.cache.hit");
      System.out.printf("orders: %d tables skipped by CRaFT, %d location cache hits%n", empty,
          hits);
      assertTrue(empty > 0, "CRaFT never answered a range query");
      assertTrue(hits > 0, "the location cache never answered a get");
    }
  }

  /** First "open" of an id forwards it; "close" forgets it. */
  private static final class Deduplicator implements Processor<String, String, String, String> {
    private ProcessorContext<String, String> context;
    private KeyValueStore<String, String> seen;

    @Override
    public void init(final ProcessorContext<String, String> context) {
      this.context = context;
      this.seen = context.getStateStore("seen");
    }

    @Override
    public void process(final Record<String, String> record) {
      if ("close".equals(record.value())) {
        seen.delete(record.key());
      } else if (seen.putIfAbsent(record.key(), record.value()) == null) {
        context.forward(record);
      }
    }
  }

  // A deduplicating processor: putIfAbsent of a new id writes an initial
  // put, the id's close deletes it, and compaction drops the two together.
  @Test
  public void putIfAbsentWritesInitialPutsThatDeletesPrune() throws InterruptedException {
    final Topology topology = new Topology();
    topology.addSource("in", "events");
    topology.addProcessor("dedup", Deduplicator::new, "in");
    topology.addStateStore(Stores.keyValueStoreBuilder(
        LodestoneStores.persistentKeyValueStore("seen"), Serdes.String(), Serdes.String()),
        "dedup");
    topology.addSink("out", "first-opens", "dedup");
    final List<String> expected = new ArrayList<>();
    try (TopologyTestDriver driver = new TopologyTestDriver(topology, config("dedup"))) {
      final TestInputTopic<String, String> events =
          driver.createInputTopic("events", new StringSerializer(), new StringSerializer());
      final TestOutputTopic<String, String> out = driver.createOutputTopic(
          "first-opens", new StringDeserializer(), new StringDeserializer());
      for (int i = 0; i < 300; i++) {
        final String id = "id-" + (i % 150);
        events.pipeInput(id, "open-" + i);  // The second open of an id is a duplicate.
        if (i < 150) {
          expected.add(id + "=open-" + i);
        }
        if (i % 150 >= 100) {
          events.pipeInput(id, "close");
          if (i < 150) {
            events.pipeInput(id, "reopen-" + i);  // New again after its close.
            expected.add(id + "=reopen-" + i);
          }
        }
      }
      final List<String> got = new ArrayList<>();
      for (final KeyValue<String, String> kv : out.readKeyValuesToList()) {
        got.add(kv.key + "=" + kv.value);
      }
      assertEquals(expected, got);
      // Compactions run in the background after the flushes.
      long pruned = 0;
      for (int wait = 0; wait < 100 && pruned == 0; wait++) {
        pruned = StatisticsConfigSetter.ticker("seen", "rocksdb.initial.chains.pruned");
        Thread.sleep(100);
      }
      System.out.printf("seen: %d initial-put chains pruned%n", pruned);
      assertTrue(pruned > 0, "no initial-put chain was pruned");
    }
  }
}
