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

  @Override
  public void setConfig(
      final String storeName, final Options options, final Map<String, Object> configs) {
    options.setCompactionStyle(org.rocksdb.CompactionStyle.LEVEL);
    options.setLevelCompactionDynamicLevelBytes(true);
    APPLIED.put(storeName, applyLodestoneOptions(options, LODESTONE_OPTIONS));
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
