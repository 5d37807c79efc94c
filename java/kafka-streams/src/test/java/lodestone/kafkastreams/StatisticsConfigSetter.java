package lodestone.kafkastreams;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.Options;
import org.rocksdb.Statistics;

/**
 * An application's rocksdb.config.setter, which Lodestone's stores apply
 * after their own options as Kafka Streams' stores do: it attaches
 * Statistics so the tests can read Lodestone's tickers per store.
 */
public class StatisticsConfigSetter implements RocksDBConfigSetter {
  static final Map<String, Statistics> STATISTICS = new ConcurrentHashMap<>();

  @Override
  public void setConfig(
      final String storeName, final Options options, final Map<String, Object> configs) {
    final Statistics statistics = new Statistics();
    options.setStatistics(statistics);
    STATISTICS.put(storeName, statistics);
  }

  @Override
  public void close(final String storeName, final Options options) {}

  /** A ticker's count by its name ("rocksdb.craft.filter.empty"); fails if there is none. */
  static long ticker(final String storeName, final String tickerName) {
    final String prefix = tickerName + " COUNT : ";
    for (final String line : STATISTICS.get(storeName).toString().split("\n")) {
      if (line.startsWith(prefix)) {
        return Long.parseLong(line.substring(prefix.length()).trim());
      }
    }
    throw new AssertionError("no ticker " + tickerName + ": not Lodestone's rocksdbjni?");
  }
}
