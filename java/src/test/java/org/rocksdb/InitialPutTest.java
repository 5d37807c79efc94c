// Lodestone: putInitial from Java on every writer that has it, and the
// verify_initial_puts contract check reached through an options string.

package org.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class InitialPutTest {
  @ClassRule
  public static final RocksNativeLibraryResource ROCKS_NATIVE_LIBRARY_RESOURCE =
      new RocksNativeLibraryResource();

  @Rule public TemporaryFolder dbFolder = new TemporaryFolder();

  private static byte[] b(final String s) {
    return s.getBytes(UTF_8);
  }

  // Deletes the keys and flushes: each initial put meets its delete in the
  // flush and the chain goes whole (a plain put would leave its delete).
  private static void assertWrittenAsInitialPuts(final RocksDB db, final Statistics statistics,
      final String... keys) throws RocksDBException {
    final long before = statistics.getTickerCount(TickerType.INITIAL_CHAINS_PRUNED);
    for (final String k : keys) {
      db.delete(b(k));
    }
    try (final FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush);
    }
    db.compactRange();
    for (final String k : keys) {
      assertThat(db.get(b(k))).isNull();
    }
    assertThat(statistics.getTickerCount(TickerType.INITIAL_CHAINS_PRUNED) - before)
        .isEqualTo(keys.length);
  }

  @Test
  public void dbPutInitialIsReadBackAndPrunedWithItsDelete() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options =
             new Options().setCreateIfMissing(true).setStatistics(statistics);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath());
         final WriteOptions writeOptions = new WriteOptions()) {
      InitialPuts.putInitial(db, b("a"), b("1"));
      InitialPuts.putInitial(db, writeOptions, b("b"), b("2"));
      InitialPuts.putInitial(db, (ColumnFamilyHandle) null, b("c"), b("3"));
      InitialPuts.putInitial(db, db.getDefaultColumnFamily(), writeOptions, b("d"), b("4"));
      assertThat(db.get(b("a"))).isEqualTo(b("1"));
      assertThat(db.get(b("b"))).isEqualTo(b("2"));
      assertThat(db.get(b("c"))).isEqualTo(b("3"));
      assertThat(db.get(b("d"))).isEqualTo(b("4"));
      assertWrittenAsInitialPuts(db, statistics, "a", "b", "c", "d");
    }
  }

  @Test
  public void putInitialInAColumnFamily() throws RocksDBException {
    final List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (final ColumnFamilyOptions cfOptions = new ColumnFamilyOptions();
         final DBOptions options =
             new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath(),
             Arrays.asList(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
                 new ColumnFamilyDescriptor(b("queue"), cfOptions)),
             handles)) {
      try {
        InitialPuts.putInitial(db, handles.get(1), b("k"), b("v"));
        assertThat(db.get(handles.get(1), b("k"))).isEqualTo(b("v"));
        assertThat(db.get(b("k"))).isNull();
      } finally {
        for (final ColumnFamilyHandle h : handles) {
          h.close();
        }
      }
    }
  }

  @Test
  public void verifyInitialPutsRefusesAVisibleKey() throws RocksDBException {
    try (final Options options = new Options().setCreateIfMissing(true)) {
      LodestoneOptions.apply(options, "verify_initial_puts=true");
      try (final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath())) {
        db.put(b("k"), b("old"));
        try {
          InitialPuts.putInitial(db, b("k"), b("new"));
          fail("putInitial over a visible value was accepted");
        } catch (final RocksDBException e) {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.InvalidArgument);
        }
        assertThat(db.get(b("k"))).isEqualTo(b("old"));
        db.delete(b("k"));
        InitialPuts.putInitial(db, b("k"), b("new"));
        assertThat(db.get(b("k"))).isEqualTo(b("new"));
      }
    }
  }

  @Test
  public void writeBatchPutInitial() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options =
             new Options().setCreateIfMissing(true).setStatistics(statistics);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath());
         final WriteBatch batch = new WriteBatch();
         final WriteOptions writeOptions = new WriteOptions()) {
      InitialPuts.putInitial(batch, b("a"), b("1"));
      InitialPuts.putInitial(batch, db.getDefaultColumnFamily(), b("b"), b("2"));
      batch.put(b("b"), b("3"));  // updates may follow an initial put
      assertThat(batch.count()).isEqualTo(3);
      db.write(writeOptions, batch);
      assertThat(db.get(b("a"))).isEqualTo(b("1"));
      assertThat(db.get(b("b"))).isEqualTo(b("3"));
      assertWrittenAsInitialPuts(db, statistics, "a", "b");
    }
  }

  @Test
  public void writeBatchWithIndexPutInitialIsReadFromTheBatch() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options =
             new Options().setCreateIfMissing(true).setStatistics(statistics);
         final RocksDB db = RocksDB.open(options, dbFolder.getRoot().getAbsolutePath());
         final WriteBatchWithIndex batch = new WriteBatchWithIndex(true);
         final ReadOptions readOptions = new ReadOptions();
         final WriteOptions writeOptions = new WriteOptions()) {
      InitialPuts.putInitial(batch, b("a"), b("1"));
      InitialPuts.putInitial(batch, db.getDefaultColumnFamily(), b("b"), b("2"));
      assertThat(batch.getFromBatchAndDB(db, readOptions, b("a"))).isEqualTo(b("1"));
      try (final DBOptions dbOptions = new DBOptions()) {
        assertThat(batch.getFromBatch(dbOptions, b("b"))).isEqualTo(b("2"));
      }
      db.write(writeOptions, batch);
      assertThat(db.get(b("b"))).isEqualTo(b("2"));
      assertWrittenAsInitialPuts(db, statistics, "a", "b");
    }
  }

  @Test
  public void pessimisticTransactionPutInitial() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options =
             new Options().setCreateIfMissing(true).setStatistics(statistics);
         final TransactionDBOptions txnDbOptions = new TransactionDBOptions();
         final TransactionDB db =
             TransactionDB.open(options, txnDbOptions, dbFolder.getRoot().getAbsolutePath());
         final WriteOptions writeOptions = new WriteOptions();
         final ReadOptions readOptions = new ReadOptions()) {
      try (final Transaction txn = db.beginTransaction(writeOptions)) {
        InitialPuts.putInitial(txn, b("a"), b("1"));
        InitialPuts.putInitial(txn, db.getDefaultColumnFamily(), b("b"), b("2"));
        InitialPuts.putInitial(txn, null, b("c"), b("3"), false);
        assertThat(txn.get(readOptions, b("a"))).isEqualTo(b("1"));
        txn.commit();
      }
      assertThat(db.get(b("a"))).isEqualTo(b("1"));
      assertThat(db.get(b("b"))).isEqualTo(b("2"));
      assertThat(db.get(b("c"))).isEqualTo(b("3"));
      assertWrittenAsInitialPuts(db, statistics, "a", "b", "c");
    }
  }

  @Test
  public void optimisticTransactionPutInitial() throws RocksDBException {
    try (final Statistics statistics = new Statistics();
         final Options options =
             new Options().setCreateIfMissing(true).setStatistics(statistics);
         final OptimisticTransactionDB db =
             OptimisticTransactionDB.open(options, dbFolder.getRoot().getAbsolutePath());
         final WriteOptions writeOptions = new WriteOptions()) {
      try (final Transaction txn = db.beginTransaction(writeOptions)) {
        InitialPuts.putInitial(txn, b("a"), b("1"));
        txn.commit();
      }
      assertThat(db.get(b("a"))).isEqualTo(b("1"));
      assertWrittenAsInitialPuts(db, statistics, "a");
    }
  }
}
