package lodestone.cluster;

import lodestone.kafkastreams.LodestoneStores;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.Cache;
import org.rocksdb.CompactionStyle;
import org.rocksdb.Options;
import org.rocksdb.Statistics;

/**
 * The applications' rocksdb.config.setter. Kafka Streams' own stores on the
 * Lodestone jar get Lodestone's options here (leveled compaction and the
 * features, as docs/bindings.md tells users to); Lodestone's stores have
 * theirs already and only get the Statistics. Every store instance (one per
 * task) records its Statistics under its store's name, so a run can sum
 * the tickers of a store over its partitions and instances. Kafka Streams
 * closes a store's Statistics after calling close here, so close takes the
 * counts of a closing instance first. Under ColdRegime every store also
 * gets a small block cache and direct reads.
 */
public class StoreStatistics implements RocksDBConfigSetter {
  private static final class Open {
    final String storeName;
    final Statistics statistics;
    final Cache coldCache;  // ColdRegime's, or null

    Open(final String storeName, final Statistics statistics, final Cache coldCache) {
      this.storeName = storeName;
      this.statistics = statistics;
      this.coldCache = coldCache;
    }
  }

  // Guarded by the class: open instances by their options, and the counts
  // of closed ones per store and ticker.
  private static final Pattern TICKER = Pattern.compile("(\\S+) COUNT : (\\d+)");
  private static final Map<Options, Open> OPEN = new IdentityHashMap<>();
  private static final Map<String, Map<String, Long>> CLOSED = new HashMap<>();

  @Override
  public void setConfig(
      final String storeName, final Options options, final Map<String, Object> configs) {
    // Table config changes before Lodestone's options string, which adds the
    // range filter to the table config natively (LodestoneOptions).
    final Cache coldCache = ColdRegime.ON ? ColdRegime.apply(options) : null;
    if (!"lodestone".equals(System.getProperty("stores")) && lodestoneJar()) {
      // -Dcompaction=kafka keeps Kafka Streams' universal compaction, and
      // -Dlodestone.options replaces the options string: what the switch
      // to leveled and each feature cost and buy, one apart from another.
      if (!"kafka".equals(System.getProperty("compaction"))) {
        options.setCompactionStyle(CompactionStyle.LEVEL);
        options.setLevelCompactionDynamicLevelBytes(true);
      }
      try {
        Class.forName("org.rocksdb.LodestoneOptions")
            .getMethod("apply", Options.class, String.class)
            .invoke(null, options,
                System.getProperty("lodestone.options", optionsFor(storeName)));
      } catch (final ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    final Statistics statistics = new Statistics();
    options.setStatistics(statistics);
    synchronized (StoreStatistics.class) {
      OPEN.put(options, new Open(storeName, statistics, coldCache));
    }
  }

  /**
   * What docs/bindings.md tells users (its LodestoneConfigSetter): Lodestone's
   * stores' options for key-value stores, the same without the location
   * cache for the segments of window and session stores, one DB each
   * (named {@code <store>.<segment start>}), hundreds in a run.
   */
  private static String optionsFor(final String storeName) {
    final String cache = "location_cache=16M;";
    if (!LodestoneStores.DEFAULT_OPTIONS.startsWith(cache)) {
      throw new IllegalStateException("options changed: " + LodestoneStores.DEFAULT_OPTIONS);
    }
    return storeName.matches(".*\\.\\d+")
        ? LodestoneStores.DEFAULT_OPTIONS.substring(cache.length())
        : LodestoneStores.DEFAULT_OPTIONS;
  }

  @Override
  public void close(final String storeName, final Options options) {
    synchronized (StoreStatistics.class) {
      final Open open = OPEN.remove(options);
      if (open != null) {
        final Map<String, Long> closed = CLOSED.computeIfAbsent(storeName, n -> new HashMap<>());
        counts(open.statistics).forEach((ticker, n) -> closed.merge(ticker, n, Long::sum));
        if (open.coldCache != null) {
          open.coldCache.close();
        }
      }
    }
  }

  private static Map<String, Long> counts(final Statistics statistics) {
    final Map<String, Long> counts = new HashMap<>();
    // Tickers are "name COUNT : n"; histograms have more fields.
    for (final String line : statistics.toString().split("\n")) {
      final Matcher m = TICKER.matcher(line.trim());
      if (m.matches()) {
        counts.put(m.group(1), Long.parseLong(m.group(2)));
      }
    }
    return counts;
  }

  /** Forgets every store (between runs in one JVM). */
  static synchronized void reset() {
    OPEN.clear();
    CLOSED.clear();
  }

  static boolean lodestoneJar() {
    try {
      Class.forName("org.rocksdb.LodestoneOptions");
      return true;
    } catch (final ClassNotFoundException e) {
      return false;
    }
  }

  /**
   * A ticker summed over every instance of a store that has been opened,
   * closed ones included; -1 when this rocksdbjni has no such ticker.
   */
  static synchronized long ticker(final String storeName, final String tickerName) {
    Long sum = CLOSED.getOrDefault(storeName, Map.of()).get(tickerName);
    for (final Open open : OPEN.values()) {
      if (open.storeName.equals(storeName)) {
        final Long n = counts(open.statistics).get(tickerName);
        if (n != null) {
          sum = sum == null ? n : sum + n;
        }
      }
    }
    return sum == null ? -1 : sum;
  }
}
