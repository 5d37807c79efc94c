package lodestone.kafkastreams;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.Options;
import org.rocksdb.Statistics;

/**
 * LodestoneConfigSetter plus, per store, the Statistics the test reads and
 * whether Lodestone's options were applied (false on stock rocksdbjni).
 */
public class RecordingConfigSetter extends LodestoneConfigSetter {
  static final Map<String, Statistics> STATISTICS = new ConcurrentHashMap<>();
  static final Map<String, Boolean> APPLIED = new ConcurrentHashMap<>();
  /** An application config: keep every flushed table in L0 (see below). */
  static final String KEEP_L0_FILES = "lodestone.test.keep.l0.files";

  @Override
  public void setConfig(
      final String storeName, final Options options, final Map<String, Object> configs) {
    options.setCompactionStyle(org.rocksdb.CompactionStyle.LEVEL);
    options.setLevelCompactionDynamicLevelBytes(true);
    if (Boolean.parseBoolean(String.valueOf(configs.get(KEEP_L0_FILES)))) {
      // TopologyTestDriver commits, and so flushes every store, after each
      // record: a delete reaches a table at once and, with the default
      // trigger, the bottom level soon after, where compaction drops it with
      // the keys it deleted. Kept in L0, deletes stay for scans to meet, as
      // in a store whose deletes have not reached the bottom yet.
      options.setLevel0FileNumCompactionTrigger(1000);
      options.setLevel0SlowdownWritesTrigger(2000);
      options.setLevel0StopWritesTrigger(3000);
    }
    APPLIED.put(storeName, applyLodestoneOptions(options, optionsFor(storeName)));
    final Statistics statistics = new Statistics();
    options.setStatistics(statistics);
    STATISTICS.put(storeName, statistics);
  }

  /** A ticker's count by name, or -1 when this library has no such ticker. */
  static long ticker(final String storeName, final String tickerName) {
    final Statistics statistics = STATISTICS.get(storeName);
    if (statistics == null) {
      throw new AssertionError("store " + storeName + " was not configured");
    }
    for (final String line : statistics.toString().split("\n")) {
      if (line.startsWith(tickerName + " COUNT : ")) {
        return Long.parseLong(line.substring(tickerName.length() + " COUNT : ".length()).trim());
      }
    }
    return -1;
  }
}
