package lodestone.cluster;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;

/**
 * The regime where Lodestone's read features pay (the db_bench prod_*
 * scenarios', docs/benchmarks.md): each store's tables several times larger
 * than its block cache and read with direct I/O, so that no read is hidden
 * by the OS page cache. A store of a few megabytes behind a 64 KiB cache
 * reads as a store of gigabytes behind Kafka Streams' 50 MiB one. On with
 * {@code -Dregime=cold} (run.sh: LODESTONE_CLUSTER_REGIME=cold, which also
 * runs 200,000 orders), for every variant alike; {@code
 * -Dstore.cache.bytes} sets the cache.
 */
final class ColdRegime {
  static final boolean ON = "cold".equals(System.getProperty("regime"));
  private static final long CACHE_BYTES = Long.getLong("store.cache.bytes", 64L << 10);

  private ColdRegime() {}

  /**
   * Gives a store's options the small block cache and direct reads; returns
   * the cache, which the caller closes when the store closes (the store's
   * table factory holds its own reference until then).
   */
  static Cache apply(final Options options) {
    final LRUCache cache = new LRUCache(CACHE_BYTES);
    // Kafka Streams lets a setter change the table config it gave the
    // options (its cache included), not replace it.
    final BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    table.setBlockCache(cache);
    options.setTableFormatConfig(table);
    options.setUseDirectReads(true);
    return cache;
  }
}
