// Lodestone: SecondaryDeletes.deleteByDeleteKeyRange from Java: what it
// deletes, what a snapshot taken before it keeps, delete tiles dropping
// blocks in a compaction, and the statuses of refused calls.

package org.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.Assert.fail;

import java.nio.ByteBuffer;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class SecondaryDeleteTest {
  @ClassRule
  public static final RocksNativeLibraryResource ROCKS_NATIVE_LIBRARY_RESOURCE =
      new RocksNativeLibraryResource();

  @Rule public TemporaryFolder dbFolder = new TemporaryFolder();

  private static final int KEYS = 4000;

  private static byte[] key(final int i) {
    return String.format("key%06d", i).getBytes(UTF_8);
  }

  // A delete key uncorrelated with the key: a big-endian "timestamp".
  private static long deleteKeyOf(final int i) {
    return (i * 7919L) % KEYS;
  }

  private static byte[] bigEndian(final long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  private static byte[] value(final int i) {
    return ByteBuffer.allocate(8 + 64).putLong(deleteKeyOf(i)).array();
  }

  private static Options tiledOptions(final Statistics statistics) throws RocksDBException {
    final Options options = new Options().setCreateIfMissing(true).setStatistics(statistics);
    LodestoneOptions.apply(options,
        "delete_key_extractor={id=value_prefix;length=8};delete_tile_blocks=4;"
            + "block_based_table_factory={block_size=512}");
    return options;
  }

  @Test
  public void deletesByValuePrefixAndDropsWholeBlocks() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options = tiledOptions(statistics);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath());
         final FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i));
      }
      db.flush(flush);
      final Snapshot before = db.getSnapshot();
      final long threshold = KEYS / 2;
      SecondaryDeletes.deleteByDeleteKeyRange(db, bigEndian(0), bigEndian(threshold));
      try (final ReadOptions atBefore = new ReadOptions().setSnapshot(before)) {
        for (int i = 0; i < KEYS; i++) {
          if (deleteKeyOf(i) < threshold) {
            assertThat(db.get(key(i))).as("key %d", i).isNull();
          } else {
            assertThat(db.get(key(i))).as("key %d", i).isEqualTo(value(i));
          }
          // The snapshot taken before the call reads what was there.
          assertThat(db.get(atBefore, key(i))).as("key %d at the snapshot", i).isEqualTo(value(i));
        }
      }
      db.releaseSnapshot(before);
      int seen = 0;
      try (final RocksIterator it = db.newIterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          assertThat(ByteBuffer.wrap(it.value()).getLong()).isGreaterThanOrEqualTo(threshold);
          seen++;
        }
      }
      assertThat(seen).isEqualTo(KEYS / 2);
      assertThat(statistics.getTickerCount(TickerType.SECONDARY_DELETE_TOMBSTONES_ADDED))
          .isEqualTo(1);
      assertThat(statistics.getTickerCount(TickerType.SECONDARY_DELETE_ENTRIES_HIDDEN))
          .isGreaterThan(0);

      // A compaction drops the covered blocks unread and the tombstone retires.
      db.compactRange();
      assertThat(statistics.getTickerCount(TickerType.SECONDARY_DELETE_BLOCKS_DROPPED_FULL))
          .isGreaterThan(0);
      assertThat(statistics.getTickerCount(TickerType.SECONDARY_DELETE_BYTES_RECLAIMED))
          .isGreaterThan(0);
      assertThat(statistics.getTickerCount(TickerType.SECONDARY_DELETE_TOMBSTONES_RETIRED))
          .isEqualTo(1);
      for (int i = 0; i < KEYS; i++) {
        assertThat(db.get(key(i)) != null).as("key %d", i).isEqualTo(deleteKeyOf(i) >= threshold);
      }
      assertThat(db.getProperty("rocksdb.lodestone.secondary-deletes")).isNotEmpty();
    }
  }

  @Test
  public void deletesInAColumnFamilyOnly() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options = tiledOptions(statistics);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath());
         final ColumnFamilyOptions cfOptions = new ColumnFamilyOptions()) {
      LodestoneOptions.apply(cfOptions, "delete_key_extractor={id=value_prefix;length=8}");
      try (final ColumnFamilyHandle events =
               db.createColumnFamily(new ColumnFamilyDescriptor("events".getBytes(UTF_8),
                   cfOptions))) {
        db.put(key(1), value(1));
        db.put(events, key(1), value(1));
        SecondaryDeletes.deleteByDeleteKeyRange(db, events, bigEndian(0), bigEndian(KEYS));
        assertThat(db.get(events, key(1))).isNull();
        assertThat(db.get(key(1))).isEqualTo(value(1));
      }
    }
  }

  @Test
  public void refusedCallsThrowTheirStatus() throws RocksDBException {
    try (final Options options = new Options().setCreateIfMissing(true);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath())) {
      try {
        SecondaryDeletes.deleteByDeleteKeyRange(db, bigEndian(0), bigEndian(1));
        fail("a column family without a delete key extractor accepted the call");
      } catch (final RocksDBException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.InvalidArgument);
      }
    }
    try (final Statistics statistics = new Statistics();
         final Options options = tiledOptions(statistics);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath())) {
      try {
        SecondaryDeletes.deleteByDeleteKeyRange(db, bigEndian(5), bigEndian(5));
        fail("an empty range was accepted");
      } catch (final RocksDBException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.InvalidArgument);
      }
    }
  }
}
