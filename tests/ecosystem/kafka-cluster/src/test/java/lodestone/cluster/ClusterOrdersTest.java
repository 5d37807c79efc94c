// Application (a) on a real cluster: an in-process KRaft broker and
// controller (Kafka's own test kit), three partitions per topic, two
// application instances with their own state directories, exactly-once
// processing. Output and interactive queries are checked against a model;
// one instance is stopped, its state wiped (what exactly-once processing
// does to a task's state after an unclean shutdown) and restarted, and the
// output must still hold every payment exactly once. The run writes its
// measurements to -Dresults.file (run.sh collects them).

package lodestone.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

public class ClusterOrdersTest {
  private static final boolean LODESTONE_STORES = "lodestone".equals(System.getProperty("stores"));
  private static final boolean LODESTONE_JAR = Boolean.getBoolean("lodestone.expected");
  private static final String APPLICATION = "orders-app";
  private static final int PARTITIONS = 3;
  private static final int REGIONS = 20;  // Orders only in even ones.
  // Sizes: -Dorders and -Dpayments (per phase); the test command runs a
  // smaller run than the measurements (run.sh).
  private static final int ORDERS = Integer.getInteger("orders", 20000);
  private static final int PAYMENTS_PER_PHASE = Integer.getInteger("payments", 10000);
  private static final Duration WAIT = Duration.ofSeconds(180);

  @TempDir Path dir;
  private KafkaClusterTestKit cluster;
  private final Map<String, KafkaStreams> instances = new LinkedHashMap<>();
  private final Map<String, Object> results = new LinkedHashMap<>();

  @BeforeEach
  public void startCluster() throws Exception {
    StoreStatistics.reset();
    cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                                                  .setCombined(true)
                                                  .setNumBrokerNodes(1)
                                                  .setNumControllerNodes(1)
                                                  .build())
                  .setConfigProp("offsets.topic.replication.factor", "1")
                  .setConfigProp("transaction.state.log.replication.factor", "1")
                  .setConfigProp("transaction.state.log.min.isr", "1")
                  .setConfigProp("group.initial.rebalance.delay.ms", "0")
                  .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
      admin.createTopics(Stream.of(OrdersTopology.ORDERS, OrdersTopology.PAYMENTS,
                                   OrdersTopology.ENRICHED, OrdersTopology.WINDOW_COUNTS,
                                   OrdersTopology.SESSIONS)
                             .map(t -> new NewTopic(t, PARTITIONS, (short) 1))
                             .toList())
          .all()
          .get();
    }
  }

  @AfterEach
  public void stopCluster() throws Exception {
    instances.values().forEach(s -> s.close(Duration.ofSeconds(30)));
    instances.clear();
    if (cluster != null) {
      cluster.close();
    }
  }

  private Properties streamsConfig(final String instance) {
    final Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    p.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve(instance).toString());
    p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, instance + ":1");
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    // Interactive queries and joins read the stores, not a record cache.
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, StoreStatistics.class);
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    return p;
  }

  /** Restores an instance ran: milliseconds spent and records restored. */
  private static final class RestoreTimes implements StateRestoreListener {
    final AtomicLong records = new AtomicLong();
    final AtomicLong started = new AtomicLong();
    final AtomicLong ended = new AtomicLong();

    @Override
    public void onRestoreStart(final TopicPartition partition, final String store,
        final long startingOffset, final long endingOffset) {
      started.compareAndSet(0, System.nanoTime());
    }

    @Override
    public void onBatchRestored(final TopicPartition partition, final String store,
        final long batchEndOffset, final long numRestored) {
      records.addAndGet(numRestored);
    }

    @Override
    public void onRestoreEnd(final TopicPartition partition, final String store,
        final long totalRestored) {
      ended.set(System.nanoTime());
    }

    double millis() {
      return started.get() == 0 ? 0 : (ended.get() - started.get()) / 1e6;
    }

    void reset() {
      records.set(0);
      started.set(0);
      ended.set(0);
    }
  }

  private KafkaStreams start(final String instance, final RestoreTimes restores) {
    final KafkaStreams streams =
        new KafkaStreams(OrdersTopology.build(LODESTONE_STORES), streamsConfig(instance));
    streams.setGlobalStateRestoreListener(restores);
    streams.start();
    instances.put(instance, streams);
    return streams;
  }

  private static void await(final String what, final BooleanSupplier condition) {
    final long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      try {
        Thread.sleep(50);
      } catch (final InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  private void awaitRunning() {
    await("every instance RUNNING", () -> instances.values().stream().allMatch(
        s -> s.state() == KafkaStreams.State.RUNNING));
  }

  private KafkaProducer<String, String> producer() {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
        cluster.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
        new StringSerializer(), new StringSerializer());
  }

  private ReadOnlyKeyValueStore<String, String> store(final KafkaStreams streams) {
    return streams.store(StoreQueryParameters.fromNameAndType(
        OrdersTopology.STORE, QueryableStoreTypes.<String, String>keyValueStore()));
  }

  // The instances hosting active partitions of the store.
  private List<KafkaStreams> hosts() {
    final List<KafkaStreams> hosts = new ArrayList<>();
    for (final StreamsMetadata m :
         instances.values().iterator().next().streamsMetadataForStore(OrdersTopology.STORE)) {
      if (!m.topicPartitions().isEmpty()) {
        hosts.add(instances.get(m.host()));
      }
    }
    return hosts;
  }

  // The store of each instance hosting active partitions, looked up once
  // per query phase as a server answering interactive queries keeps them
  // (Kafka Streams' docs obtain a store once and query it many times).
  private List<ReadOnlyKeyValueStore<String, String>> hostStores() {
    final List<ReadOnlyKeyValueStore<String, String>> stores = new ArrayList<>();
    for (final KafkaStreams streams : hosts()) {
      stores.add(store(streams));
    }
    return stores;
  }

  // Every entry of [from, to] over the given stores, in key order.
  private static List<String> range(
      final List<ReadOnlyKeyValueStore<String, String>> stores, final String from,
      final String to) {
    final List<String> out = new ArrayList<>();
    for (final ReadOnlyKeyValueStore<String, String> store : stores) {
      try (KeyValueIterator<String, String> it = store.range(from, to)) {
        it.forEachRemaining(kv -> out.add(kv.key + "=" + kv.value));
      }
    }
    Collections.sort(out);
    return out;
  }

  private long storeSize() {
    long n = 0;
    for (final KafkaStreams streams : hosts()) {
      try (KeyValueIterator<String, String> it = store(streams).all()) {
        while (it.hasNext()) {
          it.next();
          n++;
        }
      }
    }
    return n;
  }

  private static double quantile(final List<Long> nanos, final double q) {
    final List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size()))) / 1e3;
  }

  private KafkaConsumer<String, String> consumer(final String topic) {
    final KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG, "verifier-" + topic,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
        new StringDeserializer(), new StringDeserializer());
    consumer.subscribe(List.of(topic));
    return consumer;
  }

  // A topic's records so far, read committed, until `into` holds
  // `expected` and a further second brings no more.
  private static List<KeyValue<String, String>> read(final KafkaConsumer<String, String> consumer,
      final List<KeyValue<String, String>> into, final int expected) {
    final long deadline = System.nanoTime() + WAIT.toNanos();
    long quietSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      final int before = into.size();
      for (final ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
        into.add(KeyValue.pair(r.key(), r.value()));
      }
      if (into.size() != before) {
        quietSince = System.nanoTime();
      } else if (into.size() >= expected && System.nanoTime() - quietSince > 1e9) {
        break;
      }
    }
    return into;
  }

  private static List<String> joined(final List<KeyValue<String, String>> records) {
    final List<String> out = new ArrayList<>();
    records.forEach(kv -> out.add(kv.key + "=" + kv.value));
    return out;
  }

  // The newest value of each key (a key's records share a partition, so
  // their order is the order they were written in); null values drop it.
  private static TreeMap<String, String> latest(final List<KeyValue<String, String>> records) {
    final TreeMap<String, String> out = new TreeMap<>();
    for (final KeyValue<String, String> kv : records) {
      if (kv.value == null) {
        out.remove(kv.key);
      } else {
        out.put(kv.key, kv.value);
      }
    }
    return out;
  }

  /** Payments sent so far: what the windowed and session counts must show. */
  private static final class PaymentModel {
    final long startMs;
    int sent;
    final TreeMap<String, List<Long>> times = new TreeMap<>();

    PaymentModel(final long startMs) {
      this.startMs = startMs;
    }

    long nextTimestamp(final String key) {
      final long ts = startMs + 100L * sent++;
      times.computeIfAbsent(key, k -> new ArrayList<>()).add(ts);
      return ts;
    }

    TreeMap<String, String> windowCounts() {
      final long size = OrdersTopology.WINDOW.toMillis();
      final TreeMap<String, String> out = new TreeMap<>();
      times.forEach((key, list) -> list.forEach(ts -> out.merge(
          key + "@" + (ts - ts % size), "1", (a, b) -> String.valueOf(Long.parseLong(a) + 1))));
      return out;
    }

    TreeMap<String, String> sessions() {
      final long gap = OrdersTopology.SESSION_GAP.toMillis();
      final TreeMap<String, String> out = new TreeMap<>();
      times.forEach((key, list) -> {
        long start = list.get(0);
        long end = start;
        long count = 0;
        for (final long ts : list) {
          if (ts - end > gap) {
            out.put(key + "@" + start + "-" + end, String.valueOf(count));
            start = ts;
            count = 0;
          }
          end = ts;
          count++;
        }
        out.put(key + "@" + start + "-" + end, String.valueOf(count));
      });
      return out;
    }
  }

  // Sends one phase of payments, half of them to a few hundred hot orders
  // (whose sessions merge); returns the enriched records they must give.
  private List<String> sendPayments(final KafkaProducer<String, String> producer,
      final TreeMap<String, String> model, final PaymentModel payments, final Random random,
      final int phase) {
    final List<String> expected = new ArrayList<>();
    for (int j = 0; j < PAYMENTS_PER_PHASE; j++) {
      final int order =
          random.nextBoolean() ? random.nextInt(ORDERS / 64) : random.nextInt(ORDERS);
      final String key = OrdersTopology.orderKey(2 * (order % (REGIONS / 2)), order);
      final String payment = "pay-" + phase + "-" + j;
      producer.send(new ProducerRecord<>(
          OrdersTopology.PAYMENTS, null, payments.nextTimestamp(key), key, payment));
      if (model.containsKey(key)) {
        expected.add(key + "=" + payment + "|" + model.get(key));
      }
    }
    producer.flush();
    return expected;
  }

  @Test
  public void ordersJoinedQueriedAndRestored() throws Exception {
    final RestoreTimes restoresA = new RestoreTimes();
    start("a", restoresA);
    start("b", new RestoreTimes());
    awaitRunning();

    // Orders: every order once, a fifth updated, a third deleted.
    final TreeMap<String, String> model = new TreeMap<>();
    try (KafkaProducer<String, String> producer = producer()) {
      for (int i = 0; i < ORDERS; i++) {
        final String key = OrdersTopology.orderKey(2 * (i % (REGIONS / 2)), i);
        producer.send(new ProducerRecord<>(OrdersTopology.ORDERS, key, "amount-" + i));
        model.put(key, "amount-" + i);
      }
      for (int i = 0; i < ORDERS; i += 5) {
        final String key = OrdersTopology.orderKey(2 * (i % (REGIONS / 2)), i);
        producer.send(new ProducerRecord<>(OrdersTopology.ORDERS, key, "amount-" + i + "-v2"));
        model.put(key, "amount-" + i + "-v2");
      }
      for (int i = 0; i < ORDERS; i += 3) {
        final String key = OrdersTopology.orderKey(2 * (i % (REGIONS / 2)), i);
        producer.send(new ProducerRecord<>(OrdersTopology.ORDERS, key, null));
        model.remove(key);
      }
      producer.flush();
    }
    await("the orders store to hold every order", () -> storeSize() == model.size());

    // Payments carry event times after every order's, 100 ms apart, so
    // windows and sessions close and expire as the run goes on.
    final PaymentModel payments = new PaymentModel(System.currentTimeMillis() + 60_000);
    final Random random = new Random(42);
    final List<String> expected = new ArrayList<>();
    final List<KeyValue<String, String>> enriched = new ArrayList<>();
    try (KafkaProducer<String, String> producer = producer();
         KafkaConsumer<String, String> consumer = consumer(OrdersTopology.ENRICHED)) {
      // Phase 1: payments through both instances, timed end to end.
      final long t0 = System.nanoTime();
      expected.addAll(sendPayments(producer, model, payments, random, 1));
      read(consumer, enriched, expected.size());
      final double seconds = (System.nanoTime() - t0) / 1e9;
      results.put("payments_per_second", Math.round(PAYMENTS_PER_PHASE / seconds));
      assertSameRecords(expected, joined(enriched), "phase 1");

      // Interactive queries: gets on the instance that hosts the key,
      // ranges per region over both instances.
      queries(model);

      // Instance b stops; exactly-once processing wipes the state of a task
      // that did not shut down cleanly, so b's state directory goes too. a
      // takes over b's tasks, restoring their stores from the changelogs.
      restoresA.reset();
      instances.remove("b").close(Duration.ofSeconds(30));
      deleteTree(dir.resolve("b"));
      awaitRunning();
      await("a to own every partition", () -> instances.get("a").metadataForLocalThreads()
          .stream().mapToInt(t -> t.activeTasks().size()).sum() == PARTITIONS);
      results.put("failover_restore_ms", Math.round(restoresA.millis()));
      results.put("failover_restored_records", restoresA.records.get());
      // Which tasks b held, and so how much a restores, is the assignor's
      // choice: the time per record compares runs.
      results.put("failover_restore_us_per_record", restoresA.records.get() == 0 ? 0
          : Math.round(1000 * restoresA.millis() / restoresA.records.get()));
      expected.addAll(sendPayments(producer, model, payments, random, 2));
      // b comes back with no state: it rejoins, warms up and may take tasks
      // back; no payment may be lost or duplicated on the way.
      start("b", new RestoreTimes());
      awaitRunning();
      expected.addAll(sendPayments(producer, model, payments, random, 3));
      read(consumer, enriched, expected.size());
      assertSameRecords(expected, joined(enriched), "after b's restart");
      // b's return moves tasks back (warm-up, then a probing rebalance):
      // queries that meet a migrating store try again, as an application's
      // interactive queries would.
      final long deadline = System.nanoTime() + WAIT.toNanos();
      while (true) {
        try {
          queries(model);
          break;
        } catch (final InvalidStateStoreException e) {
          if (System.nanoTime() > deadline) {
            throw e;
          }
          Thread.sleep(200);
        }
      }
    }
    // Every payment counted once in its window and its session.
    try (KafkaConsumer<String, String> windows = consumer(OrdersTopology.WINDOW_COUNTS);
         KafkaConsumer<String, String> sessions = consumer(OrdersTopology.SESSIONS)) {
      final List<KeyValue<String, String>> windowRecords =
          read(windows, new ArrayList<>(), payments.sent);
      assertEquals(payments.sent, windowRecords.size(), "one window update per payment");
      assertEquals(payments.windowCounts(), latest(windowRecords), "windowed counts");
      final TreeMap<String, String> sessionCounts =
          latest(read(sessions, new ArrayList<>(), payments.sent));
      assertEquals(payments.sessions(), sessionCounts, "session counts");
      results.put("windows", payments.windowCounts().size());
      results.put("sessions", sessionCounts.size());
    }

    final Map<String, Long> tickers = new LinkedHashMap<>();
    for (final String ticker : List.of("rocksdb.location.cache.hit",
             "rocksdb.craft.filter.empty", "rocksdb.read.path.range.tombstones.inserted",
             "rocksdb.initial.chains.pruned")) {
      tickers.put(ticker, StoreStatistics.ticker(OrdersTopology.STORE, ticker));
    }
    results.put("tickers", tickers);
    // Blocks the orders stores read from their files (every variant has
    // these tickers): what the read features save where the cache is small.
    results.put("data_block_misses", dataBlockMisses());
    results.put("filter_block_misses",
        StoreStatistics.ticker(OrdersTopology.STORE, "rocksdb.block.cache.filter.miss"));
    instances.values().forEach(s -> s.close(Duration.ofSeconds(30)));
    instances.clear();
    storeFiles();
    writeResults();

    if (LODESTONE_JAR) {
      assertTrue(tickers.get("rocksdb.location.cache.hit") > 0, tickers.toString());
      if (LODESTONE_STORES) {
        assertTrue(tickers.get("rocksdb.craft.filter.empty") > 0, tickers.toString());
      }
    } else {
      tickers.values().forEach(n -> assertEquals(-1L, n, "a Lodestone ticker on stock"));
    }
  }

  private void queries(final TreeMap<String, String> model) {
    final Random random = new Random(7);
    final List<Long> gets = new ArrayList<>();
    for (int q = 0; q < 4000; q++) {
      final int order = random.nextInt(ORDERS);
      final String key = OrdersTopology.orderKey(2 * (order % (REGIONS / 2)), order);
      final KeyQueryMetadata owner = instances.get("a").queryMetadataForKey(
          OrdersTopology.STORE, key, Serdes.String().serializer());
      final KafkaStreams host = instances.get(owner.activeHost().host());
      final ReadOnlyKeyValueStore<String, String> store = store(host);
      final long t = System.nanoTime();
      final String value = store.get(key);
      gets.add(System.nanoTime() - t);
      assertEquals(model.get(key), value, key);
    }
    // Regions with orders, then regions without (odd ones: where a sparse
    // key space has nothing), timed in separate loops: an empty region
    // timed right after the scan of the populated region below it took
    // about ten times as long in every variant (that scan's aftermath in
    // the JVM), and read nothing from the files, that scan having just
    // cached the next region's first block. Like a get, a range is timed
    // from its call on the stores: finding the hosts and their stores is
    // outside the timed region.
    final List<ReadOnlyKeyValueStore<String, String>> stores = hostStores();
    final List<Long> ranges = new ArrayList<>();
    for (int round = 0; round < 10; round++) {
      for (int region = 0; region < REGIONS; region += 2) {
        final String from = OrdersTopology.orderKey(region, 0);
        final String to = OrdersTopology.orderKey(region, 999999);
        final List<String> want = new ArrayList<>();
        model.subMap(from, true, to, true).forEach((k, v) -> want.add(k + "=" + v));
        final long t = System.nanoTime();
        final List<String> got = range(stores, from, to);
        ranges.add(System.nanoTime() - t);
        assertEquals(want, got, "region " + region);
      }
    }
    final List<Long> emptyRanges = new ArrayList<>();
    final long emptyMisses = dataBlockMisses();
    for (int round = 0; round < 10; round++) {
      for (int region = 1; region < REGIONS; region += 2) {
        final String from = OrdersTopology.orderKey(region, 0);
        final String to = OrdersTopology.orderKey(region, 999999);
        final long t = System.nanoTime();
        final List<String> got = range(stores, from, to);
        emptyRanges.add(System.nanoTime() - t);
        assertEquals(List.of(), got, "region " + region);
      }
    }
    final double emptyBlocks = (dataBlockMisses() - emptyMisses) / (double) emptyRanges.size();
    // Ranges between two neighbouring orders of a region (ids 10 apart):
    // empty, and each one's seeks land next to a random key, not on a
    // region boundary that every query shares.
    final List<Long> gapRanges = new ArrayList<>();
    final long gapMisses = dataBlockMisses();
    for (int q = 0; q < 400; q++) {
      final int order = random.nextInt(ORDERS);
      final int region = 2 * (order % (REGIONS / 2));
      final String from = OrdersTopology.orderKey(region, order + 1);
      final String to = OrdersTopology.orderKey(region, order + REGIONS / 2 - 1);
      final long t = System.nanoTime();
      final List<String> got = range(stores, from, to);
      gapRanges.add(System.nanoTime() - t);
      assertEquals(List.of(), got, from);
    }
    final String phase = results.containsKey("get_p50_us") ? "_after_restart" : "";
    // Data blocks read from the files per query (the stream threads are
    // idle while the queries run), for the two kinds of empty range.
    results.put("empty_range_data_blocks_read" + phase, emptyBlocks);
    results.put("gap_range_data_blocks_read" + phase,
        (dataBlockMisses() - gapMisses) / (double) gapRanges.size());
    results.put("gap_range_p50_us" + phase, quantile(gapRanges, 0.5));
    results.put("gap_range_p99_us" + phase, quantile(gapRanges, 0.99));
    results.put("get_p50_us" + phase, quantile(gets, 0.5));
    results.put("get_p99_us" + phase, quantile(gets, 0.99));
    results.put("range_p50_us" + phase, quantile(ranges, 0.5));
    results.put("range_p99_us" + phase, quantile(ranges, 0.99));
    results.put("empty_range_p50_us" + phase, quantile(emptyRanges, 0.5));
    results.put("empty_range_p99_us" + phase, quantile(emptyRanges, 0.99));
  }

  private static long dataBlockMisses() {
    return StoreStatistics.ticker(OrdersTopology.STORE, "rocksdb.block.cache.data.miss");
  }

  private static void assertSameRecords(
      final List<String> expected, final List<String> got, final String when) {
    final List<String> want = new ArrayList<>(expected);
    final List<String> have = new ArrayList<>(got);
    Collections.sort(want);
    Collections.sort(have);
    assertEquals(want.size(), have.size(), when + ": record count (lost or duplicated)");
    assertEquals(want, have, when);
  }

  // Per store directory left by the run: bytes of table files and the
  // deletes (tombstones) they still hold.
  private void storeFiles() throws IOException, RocksDBException {
    long bytes = 0;
    long tombstones = 0;
    final List<Path> stores;
    try (Stream<Path> paths = Files.walk(dir)) {
      stores = paths.filter(p -> p.endsWith(Paths.get("rocksdb", OrdersTopology.STORE)))
                   .toList();
    }
    for (final Path store : stores) {
      try (Stream<Path> files = Files.list(store)) {
        for (final Path f : files.filter(f -> f.toString().endsWith(".sst")).toList()) {
          bytes += Files.size(f);
        }
      }
      try (Options options = new Options();
           RocksDB db = RocksDB.openReadOnly(options, store.toString())) {
        final String properties = db.getProperty("rocksdb.aggregated-table-properties");
        final int at = properties.indexOf("# deletions=");
        if (at >= 0) {
          final int end = properties.indexOf(';', at);
          tombstones += Long.parseLong(properties.substring(at + 12, end).trim());
        }
      }
    }
    results.put("store_directories", stores.size());
    results.put("store_table_bytes", bytes);
    results.put("tombstones_in_tables", tombstones);
  }

  private void writeResults() throws IOException {
    final StringBuilder json = new StringBuilder("{\"stores\": \"")
                                   .append(LODESTONE_STORES ? "lodestone" : "kafka")
                                   .append("\", \"lodestone_jar\": ")
                                   .append(LODESTONE_JAR);
    results.forEach((k, v) -> {
      json.append(", \"").append(k).append("\": ");
      if (v instanceof Map<?, ?> m) {
        json.append('{');
        final StringBuilder inner = new StringBuilder();
        m.forEach((mk, mv) -> inner.append(inner.length() == 0 ? "" : ", ")
                                   .append('"').append(mk).append("\": ").append(mv));
        json.append(inner).append('}');
      } else {
        json.append(v);
      }
    });
    json.append("}\n");
    System.out.print(json);
    final String file = System.getProperty("results.file");
    if (file != null) {
      Files.createDirectories(Paths.get(file).getParent());
      Files.writeString(Paths.get(file), json.toString());
    }
  }

  private static void deleteTree(final Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Collections.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (final IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
