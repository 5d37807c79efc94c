// Lodestone's store is a drop-in for Kafka Streams' persistent key-value
// store: the RocksDB options Kafka Streams' own store opens with are the
// ones it opens with, but for the compaction style (leveled: the tombstone
// density trigger and key-count ranking work only there) and the features.
// Compared through the OPTIONS files both stores write.

package lodestone.kafkastreams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class KafkaStreamsDefaultsTest {
  @TempDir File stateDir;

  // The options Kafka Streams' RocksDBStore sets (its openDB), as the
  // OPTIONS file names them; "section.name". (It calls
  // optimizeFiltersForHits(), RocksJava's getter, which sets nothing: false
  // in both.)
  private static final List<String> KAFKA_STREAMS_SETS = List.of(
      "CFOptions.write_buffer_size",
      "CFOptions.max_write_buffer_number",
      "CFOptions.compression",
      "CFOptions.optimize_filters_for_hits",
      "DBOptions.max_background_jobs",
      "DBOptions.info_log_level",
      "TableOptions.block_size",
      "TableOptions.filter_policy",
      "TableOptions.cache_index_and_filter_blocks");

  // The last OPTIONS file a store wrote, as "section.name" -> value (the
  // section's first word: DBOptions, CFOptions, TableOptions).
  private static Map<String, String> storeOptions(final File dir) throws IOException {
    final Path latest;
    try (Stream<Path> files = Files.list(dir.toPath())) {
      latest = files.filter(f -> f.getFileName().toString().startsWith("OPTIONS-"))
          .max((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
          .orElseThrow(() -> new AssertionError("no OPTIONS file in " + dir));
    }
    final Map<String, String> options = new HashMap<>();
    String section = "";
    for (final String raw : Files.readAllLines(latest)) {
      final String line = raw.trim();
      if (line.startsWith("[")) {
        section = line.substring(1).split("[ /\\]]")[0];
      } else if (line.contains("=") && !line.startsWith("#")) {
        final int eq = line.indexOf('=');
        options.put(section + "." + line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return options;
  }

  private Map<String, String> openAndClose(final String name,
      final KeyValueBytesStoreSupplier supplier) throws IOException {
    final Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "defaults");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    final File dir = new File(stateDir, name);
    final MockProcessorContext<String, String> context =
        new MockProcessorContext<>(config, new TaskId(0, 0), dir);
    final KeyValueStore<String, String> store =
        Stores.keyValueStoreBuilder(supplier, Serdes.String(), Serdes.String())
            .withLoggingDisabled()
            .withCachingDisabled()
            .build();
    store.init(context.getStateStoreContext(), store);
    try {
      store.put("k", "v");
      store.flush();
    } finally {
      store.close();
    }
    return storeOptions(new File(new File(dir, "rocksdb"), supplier.name()));
  }

  @Test
  public void opensWithKafkaStreamsOwnStoreOptions() throws IOException {
    final Map<String, String> kafkaStreams =
        openAndClose("kafka-streams", Stores.persistentKeyValueStore("orders"));
    final Map<String, String> lodestone =
        openAndClose("lodestone", LodestoneStores.persistentKeyValueStore("orders"));
    for (final String option : KAFKA_STREAMS_SETS) {
      assertNotNull(kafkaStreams.get(option), option + " not in Kafka Streams' OPTIONS");
      assertEquals(kafkaStreams.get(option), lodestone.get(option), option);
    }
    // The differences, as documented.
    assertEquals("kCompactionStyleUniversal", kafkaStreams.get("CFOptions.compaction_style"));
    assertEquals("kCompactionStyleLevel", lodestone.get("CFOptions.compaction_style"));
    assertEquals("craft", lodestone.get("TableOptions.range_filter"));
  }
}
