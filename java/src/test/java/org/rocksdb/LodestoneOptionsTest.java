// Lodestone: options strings applied to existing Java option objects, and
// Lodestone's mutable options through MutableColumnFamilyOptions.

package org.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.Assert.fail;

import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class LodestoneOptionsTest {
  @ClassRule
  public static final RocksNativeLibraryResource ROCKS_NATIVE_LIBRARY_RESOURCE =
      new RocksNativeLibraryResource();

  @Rule public TemporaryFolder dbFolder = new TemporaryFolder();

  private static byte[] b(final String s) {
    return s.getBytes(UTF_8);
  }

  @Test
  public void applyKeepsWhatSettersSetAndChangesWhatTheStringNames()
      throws RocksDBException {
    try (final ColumnFamilyOptions options = new ColumnFamilyOptions()) {
      options.setWriteBufferSize(7 << 20);
      LodestoneOptions.apply(
          options, "min_tombstones_for_range_conversion=3;max_write_buffer_number=5");
      assertThat(options.writeBufferSize()).isEqualTo(7 << 20);
      assertThat(options.maxWriteBufferNumber()).isEqualTo(5);
    }
    try (final DBOptions options = new DBOptions()) {
      options.setMaxBackgroundJobs(3);
      LodestoneOptions.apply(options, "verify_initial_puts=true;max_open_files=77");
      assertThat(options.maxBackgroundJobs()).isEqualTo(3);
      assertThat(options.maxOpenFiles()).isEqualTo(77);
    }
  }

  // The shape of Kafka Streams' RocksDBGenericOptionsToDbOptionsColumnFamilyOptionsAdapter:
  // an Options whose setters write to the two objects the DB is opened with.
  private static final class ForwardingOptions extends Options {
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions cfOptions;

    ForwardingOptions(final DBOptions dbOptions, final ColumnFamilyOptions cfOptions) {
      this.dbOptions = dbOptions;
      this.cfOptions = cfOptions;
    }
  }

  @Test
  public void applyWritesThroughAnOptionsThatForwardsToDbAndCfOptions()
      throws RocksDBException {
    try (final DBOptions dbOptions = new DBOptions();
         final ColumnFamilyOptions cfOptions = new ColumnFamilyOptions();
         final ForwardingOptions options = new ForwardingOptions(dbOptions, cfOptions)) {
      LodestoneOptions.apply(options, "max_open_files=55;max_write_buffer_number=6");
      assertThat(dbOptions.maxOpenFiles()).isEqualTo(55);
      assertThat(cfOptions.maxWriteBufferNumber()).isEqualTo(6);
      try {
        LodestoneOptions.apply(options, "max_open_files=56;no_such_option=1");
        fail("accepted an unknown option");
      } catch (final RocksDBException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.InvalidArgument);
      }
      assertThat(dbOptions.maxOpenFiles()).isEqualTo(55);
    }
  }

  @Test
  public void badInputIsAnInvalidArgumentAndChangesNothing() throws RocksDBException {
    try (final Options options = new Options()) {
      options.setMaxOpenFiles(11);
      final String[] bad = {"max_open_files=12;no_such_option=1", "location_cache=lots",
          "tombstone_density_trigger=dense", "max_open_files"};
      for (final String s : bad) {
        try {
          LodestoneOptions.apply(options, s);
          fail("accepted: " + s);
        } catch (final RocksDBException e) {
          assertThat(e.getStatus().getCode()).as(s).isEqualTo(Status.Code.InvalidArgument);
        }
        assertThat(options.maxOpenFiles()).as(s).isEqualTo(11);
      }
    }
  }

  @Test
  public void locationCacheFromAnOptionsStringServesGets() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options =
             new Options().setCreateIfMissing(true).setStatistics(statistics)) {
      LodestoneOptions.apply(options, "location_cache=1M");
      try (final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath());
           final FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        for (int i = 0; i < 100; i++) {
          db.put(b("key" + i), b("value" + i));
        }
        db.flush(flush);
        for (int round = 0; round < 2; round++) {
          for (int i = 0; i < 100; i++) {
            assertThat(db.get(b("key" + i))).isEqualTo(b("value" + i));
          }
        }
        assertThat(statistics.getTickerCount(TickerType.LOCATION_CACHE_HIT))
            .isGreaterThanOrEqualTo(100);
        assertThat(db.getProperty("rocksdb.lodestone.location-cache")).contains("capacity");
      }
    }
  }

  @Test
  public void craftFilterFromAnOptionsStringSkipsEmptyRanges() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options =
             new Options().setCreateIfMissing(true).setStatistics(statistics)) {
      LodestoneOptions.apply(options, "block_based_table_factory={range_filter=craft}");
      try (final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath());
           final FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        for (int i = 0; i < 1000; i++) {
          db.put(b(String.format("k%05d", i * 10)), b("v"));
        }
        db.flush(flush);
        int found = 0;
        for (int i = 0; i < 1000; i++) {
          // [k..1, k..9): between two keys, empty.
          try (final Slice upper = new Slice(String.format("k%05d", i * 10 + 9));
               final ReadOptions read = new ReadOptions().setIterateUpperBound(upper);
               final RocksIterator it = db.newIterator(read)) {
            it.seek(b(String.format("k%05d", i * 10 + 1)));
            found += it.isValid() ? 1 : 0;
          }
        }
        assertThat(found).isEqualTo(0);
        assertThat(statistics.getTickerCount(TickerType.CRAFT_FILTER_EMPTY))
            .isGreaterThan(500);
      }
    }
  }

  @Test
  public void mutableOptionsParseSetAndGetLodestoneKeys() throws RocksDBException {
    final MutableColumnFamilyOptions parsed =
        MutableColumnFamilyOptions
            .parse("min_tombstones_for_range_conversion=3;tombstone_density_trigger=0.25")
            .build();
    assertThat(parsed.getKeys()).contains("min_tombstones_for_range_conversion",
        "tombstone_density_trigger");

    try (final Options options = new Options().setCreateIfMissing(true);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath())) {
      db.setOptions(MutableColumnFamilyOptions.builder()
                        .setMinTombstonesForRangeConversion(5)
                        .setDeletePersistenceThreshold(600)
                        .setTombstoneDensityTrigger(0.5)
                        .setTombstoneDensityWindow(64)
                        .build());
      final MutableColumnFamilyOptions.MutableColumnFamilyOptionsBuilder current =
          db.getOptions();
      assertThat(current.minTombstonesForRangeConversion()).isEqualTo(5);
      assertThat(current.deletePersistenceThreshold()).isEqualTo(600);
      assertThat(current.tombstoneDensityTrigger()).isEqualTo(0.5);
      assertThat(current.tombstoneDensityWindow()).isEqualTo(64);

      // getOptions parses the DB's string with unknown keys ignored: ours
      // are known, so they are there.
      assertThat(current.build().getKeys()).contains("min_tombstones_for_range_conversion",
          "delete_persistence_threshold", "tombstone_density_trigger",
          "tombstone_density_window");
      // A string with a Lodestone key reaches the DB instead of being dropped.
      db.setOptions(MutableColumnFamilyOptions.parse("min_tombstones_for_range_conversion=7", true)
                        .build());
      assertThat(db.getOptions().minTombstonesForRangeConversion()).isEqualTo(7);
    }
  }
}
