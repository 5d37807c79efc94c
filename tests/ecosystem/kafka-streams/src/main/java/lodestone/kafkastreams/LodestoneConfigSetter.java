// A RocksDBConfigSetter that turns Lodestone's features on for every state
// store: copy it into an application and name it in
// rocksdb.config.setter (StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG).

package lodestone.kafkastreams;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.Options;

/**
 * Lodestone's options for Kafka Streams state stores (docs/bindings.md says
 * what each does for them):
 *
 * <ul>
 *   <li>{@code location_cache}: a store's {@code get} that misses the
 *       memtables goes straight to the data block that held the key last
 *       time, instead of searching level by level;
 *   <li>{@code min_tombstones_for_range_conversion}: a range scan (or
 *       {@code all()}) that walks a run of deleted keys, as KTable tombstones
 *       and changelog deletes leave, replaces it with one range tombstone, so
 *       later scans skip it in one step;
 *   <li>{@code tombstone_density_trigger}: compaction picks files dense with
 *       tombstones first, so deleted keys stop costing reads sooner;
 *   <li>{@code range_filter=craft}: tables carry a range filter that lets
 *       bounded seeks skip tables with no key in range; {@code
 *       partition_pinning=kAll} keeps its partitions with their table once
 *       read, as Kafka Streams keeps its Bloom filters out of the block
 *       cache's reach.
 * </ul>
 *
 * <p>Kafka Streams opens stores with universal compaction; the
 * tombstone-aware picks work with leveled compaction, which this sets.
 *
 * <p>On stock rocksdbjni (no {@code org.rocksdb.LodestoneOptions}) it only
 * sets leveled compaction, so one application runs on either jar.
 */
public class LodestoneConfigSetter implements RocksDBConfigSetter {
  /**
   * The options of a segment of a window or session store: all but the
   * location cache. Kafka Streams opens one DB per segment, hundreds in a
   * run, and each would allocate and touch a location cache of its own,
   * for fetches that mostly hit memtables and recent files; in the Kafka
   * cluster benchmark that was most of what Lodestone's options cost
   * Kafka Streams' own stores (docs/benchmarks.md).
   */
  public static final String SEGMENT_OPTIONS = "min_tombstones_for_range_conversion=4;"
      + "tombstone_density_trigger=0.3;"
      + "block_based_table_factory={range_filter=craft;"
      + "metadata_cache_options={partition_pinning=kAll}}";
  /** The options of a key-value store: the location cache, and the rest. */
  public static final String LODESTONE_OPTIONS = "location_cache=16M;" + SEGMENT_OPTIONS;

  @Override
  public void setConfig(
      final String storeName, final Options options, final Map<String, Object> configs) {
    options.setCompactionStyle(CompactionStyle.LEVEL);
    options.setLevelCompactionDynamicLevelBytes(true);
    // Changes to the table config (options.tableFormatConfig(), then
    // setTableFormatConfig) go here, before the string: setTableFormatConfig
    // builds a new table factory, without the range filter the string adds.
    applyLodestoneOptions(options, optionsFor(storeName));
  }

  /**
   * {@link #SEGMENT_OPTIONS} for a segment of a window or session store
   * (Kafka Streams names one {@code <store>.<segment start>}), else {@link
   * #LODESTONE_OPTIONS}.
   */
  public static String optionsFor(final String storeName) {
    return storeName.matches(".*\\.\\d+") ? SEGMENT_OPTIONS : LODESTONE_OPTIONS;
  }

  @Override
  public void close(final String storeName, final Options options) {}

  /**
   * Applies an options string through {@code LodestoneOptions.apply}, which
   * writes through the Options adapter Kafka Streams passes to the DB and
   * column family options it opens the store with. Returns false on stock
   * rocksdbjni; a bad string throws.
   */
  public static boolean applyLodestoneOptions(final Options options, final String optionsString) {
    final Method apply;
    try {
      apply = Class.forName("org.rocksdb.LodestoneOptions")
                  .getMethod("apply", Options.class, String.class);
    } catch (final ClassNotFoundException | NoSuchMethodException e) {
      return false;
    }
    try {
      apply.invoke(null, options, optionsString);
    } catch (final InvocationTargetException e) {
      throw new IllegalArgumentException(
          "Lodestone options \"" + optionsString + "\": " + e.getCause().getMessage(),
          e.getCause());
    } catch (final IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
    return true;
  }
}
