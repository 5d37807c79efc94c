// Lodestone: every TickerType constant of ours reads the C++ ticker of the
// same name (patch 0038, java/rocksjni/lodestone_tickers.h).

package org.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class LodestoneTickersTest {
  @ClassRule
  public static final RocksNativeLibraryResource ROCKS_NATIVE_LIBRARY_RESOURCE =
      new RocksNativeLibraryResource();

  @Rule public TemporaryFolder dbFolder = new TemporaryFolder();

  private static final Map<TickerType, String> NAMES = new LinkedHashMap<>();
  static {
    NAMES.put(TickerType.LOCATION_CACHE_HIT, "rocksdb.location.cache.hit");
    NAMES.put(TickerType.LOCATION_CACHE_MISS, "rocksdb.location.cache.miss");
    NAMES.put(TickerType.LOCATION_CACHE_FALSE_HIT, "rocksdb.location.cache.false.hit");
    NAMES.put(TickerType.LOCATION_CACHE_STALE, "rocksdb.location.cache.stale");
    NAMES.put(TickerType.LOCATION_CACHE_POPULATE, "rocksdb.location.cache.populate");
    NAMES.put(
        TickerType.LOCATION_CACHE_POPULATE_SKIPPED, "rocksdb.location.cache.populate.skipped");
    NAMES.put(TickerType.LOCATION_CACHE_INVALIDATE, "rocksdb.location.cache.invalidate");
    NAMES.put(TickerType.CRAFT_FILTER_CHECKED, "rocksdb.craft.filter.checked");
    NAMES.put(TickerType.CRAFT_FILTER_EMPTY, "rocksdb.craft.filter.empty");
    NAMES.put(TickerType.CRAFT_FILTER_FALSE_POSITIVE, "rocksdb.craft.filter.false.positive");
    NAMES.put(TickerType.CRAFT_FILTER_BYTES_READ, "rocksdb.craft.filter.bytes.read");
    NAMES.put(TickerType.INITIAL_CHAINS_PRUNED, "rocksdb.initial.chains.pruned");
    NAMES.put(TickerType.TOMBSTONES_PRUNED_EARLY, "rocksdb.tombstones.pruned.early");
    NAMES.put(
        TickerType.TOMBSTONES_REACHED_BOTTOMMOST, "rocksdb.tombstones.reached.bottommost");
    NAMES.put(
        TickerType.INITIAL_PUT_CONTRACT_VIOLATIONS, "rocksdb.initial.put.contract.violations");
    NAMES.put(TickerType.COMPACTION_TOMBSTONE_DENSITY_PICKS,
        "rocksdb.compaction.tombstone.density.picks");
    NAMES.put(TickerType.COMPACTION_TOMBSTONE_DEADLINE_PICKS,
        "rocksdb.compaction.tombstone.deadline.picks");
    NAMES.put(TickerType.READ_PATH_RANGE_TOMBSTONES_INSERTED,
        "rocksdb.read.path.range.tombstones.inserted");
    NAMES.put(TickerType.READ_PATH_RANGE_TOMBSTONES_DISCARDED,
        "rocksdb.read.path.range.tombstones.discarded");
    NAMES.put(TickerType.COMPACTION_OVERLAP_BY_KEYS_FROM_FILTER,
        "rocksdb.compaction.overlap.by.keys.from.filter");
    NAMES.put(TickerType.COMPACTION_OVERLAP_BY_KEYS_WHOLE_FILE,
        "rocksdb.compaction.overlap.by.keys.whole.file");
    NAMES.put(TickerType.SECONDARY_DELETE_TOMBSTONES_ADDED,
        "rocksdb.secondary.delete.tombstones.added");
    NAMES.put(TickerType.SECONDARY_DELETE_TOMBSTONES_RETIRED,
        "rocksdb.secondary.delete.tombstones.retired");
    NAMES.put(TickerType.SECONDARY_DELETE_ENTRIES_HIDDEN,
        "rocksdb.secondary.delete.entries.hidden");
    NAMES.put(TickerType.SECONDARY_DELETE_ENTRIES_DROPPED,
        "rocksdb.secondary.delete.entries.dropped");
    NAMES.put(TickerType.SECONDARY_DELETE_BLOCKS_SKIPPED,
        "rocksdb.secondary.delete.blocks.skipped");
    NAMES.put(TickerType.SECONDARY_DELETE_BLOCKS_DROPPED_FULL,
        "rocksdb.secondary.delete.blocks.dropped.full");
    NAMES.put(TickerType.SECONDARY_DELETE_BLOCKS_DROPPED_PARTIAL,
        "rocksdb.secondary.delete.blocks.dropped.partial");
    NAMES.put(TickerType.SECONDARY_DELETE_BYTES_RECLAIMED,
        "rocksdb.secondary.delete.bytes.reclaimed");
  }

  private static byte[] b(final String s) {
    return s.getBytes(UTF_8);
  }

  @Test
  public void everyLodestoneConstantReadsItsTicker() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options =
             new Options().setCreateIfMissing(true).setStatistics(statistics)) {
      // craft_range_filter: the CRaFT option's name before range_filter, which
      // strings written for earlier releases still use.
      LodestoneOptions.apply(options,
          "location_cache=1M;verify_initial_puts=true;min_tombstones_for_range_conversion=3;"
              + "block_based_table_factory={craft_range_filter=true}");
      try (final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath());
           final FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        // Location cache: populated, then hit; a flush invalidates.
        for (int i = 0; i < 200; i++) {
          db.put(b(String.format("k%05d", i * 10)), b("v"));
        }
        db.flush(flush);
        for (int round = 0; round < 3; round++) {
          for (int i = 0; i < 200; i += 1 + round) {
            db.get(b(String.format("k%05d", i * 10)));
          }
        }
        // CRaFT: bounded seeks into the gaps.
        for (int i = 0; i < 50; i++) {
          try (final Slice upper = new Slice(String.format("k%05d", i * 10 + 9));
               final ReadOptions read = new ReadOptions().setIterateUpperBound(upper);
               final RocksIterator it = db.newIterator(read)) {
            it.seek(b(String.format("k%05d", i * 10 + 1)));
          }
        }
        // Initial puts: a broken contract, chains pruned.
        try {
          InitialPuts.putInitial(db, b("k00000"), b("again"));
        } catch (final RocksDBException expected) {
          // refused and counted
        }
        for (int i = 0; i < 30; i++) {
          InitialPuts.putInitial(db, b(String.format("q%03d", i)), b("v"));
        }
        for (int i = 0; i < 30; i++) {
          db.delete(b(String.format("q%03d", i)));
        }
        // Conversion: a scan over the deleted run.
        try (final RocksIterator it = db.newIterator()) {
          for (it.seekToFirst(); it.isValid(); it.next()) {
          }
        }
        db.flush(flush);
        db.compactRange();
      }
      int nonzero = 0;
      for (final Map.Entry<TickerType, String> e : NAMES.entrySet()) {
        final long byConstant = statistics.getTickerCount(e.getKey());
        assertThat(byConstant)
            .as(e.getKey() + " vs " + e.getValue())
            .isEqualTo(LodestoneTickers.count(statistics, e.getValue()));
        nonzero += byConstant > 0 ? 1 : 0;
      }
      // Enough distinct activity that a swapped pair would show.
      assertThat(nonzero).isGreaterThanOrEqualTo(8);
      // Every Lodestone constant is in the table above.
      int constants = 0;
      for (final TickerType t : TickerType.values()) {
        constants += t.getValue() <= -0x58 ? 1 : 0;
      }
      assertThat(constants).isEqualTo(NAMES.size());
    }
  }
}
