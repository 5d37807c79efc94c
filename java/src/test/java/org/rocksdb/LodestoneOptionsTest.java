// Lodestone: options strings applied to existing Java option objects and to
// an open DB.

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
  public void setOptionsChangesLodestoneKeysOnAnOpenDB() throws RocksDBException {
    try (final Options options = new Options().setCreateIfMissing(true);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath())) {
      final ColumnFamilyHandle cf = db.getDefaultColumnFamily();
      // At their defaults Lodestone's options are left out of the string.
      assertThat(LodestoneOptions.getOptions(db, cf))
          .doesNotContain("min_tombstones_for_range_conversion");

      LodestoneOptions.setOptions(db, cf,
          "min_tombstones_for_range_conversion=5;delete_persistence_threshold=600;"
              + "tombstone_density_trigger=0.5;tombstone_density_window=64;"
              + "max_write_buffer_number=5");
      final String current = LodestoneOptions.getOptions(db, cf);
      assertThat(current).contains("min_tombstones_for_range_conversion=5;",
          "delete_persistence_threshold=600;", "tombstone_density_window=64;");
      assertThat(current).containsPattern("tombstone_density_trigger=0\\.50*;");
      // Upstream's keys keep working through RocksJava's own path.
      assertThat(db.getOptions(cf).maxWriteBufferNumber()).isEqualTo(5);

      // An unknown key, an immutable one or a value out of range: refused,
      // and nothing changes.
      for (final String refused : new String[] {"min_tombstones_for_range_conversion=6;no_such=1",
               "min_tombstones_for_range_conversion=6;num_levels=3",
               "min_tombstones_for_range_conversion=6;tombstone_density_trigger=2"}) {
        try {
          LodestoneOptions.setOptions(db, cf, refused);
          fail("accepted " + refused);
        } catch (final RocksDBException e) {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.InvalidArgument);
        }
        assertThat(LodestoneOptions.getOptions(db, cf))
            .contains("min_tombstones_for_range_conversion=5;");
      }
    }
  }
}
