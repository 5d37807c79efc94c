// Lodestone: initial puts from Java (docs/initial_put.md). These are static
// methods of our own class rather than methods of RocksDB, WriteBatch and
// Transaction, so that upstream's classes stay unpatched.

package org.rocksdb;

/**
 * Writes a key's <em>initial version</em>. Contract: when the write applies,
 * the key has no visible value (never written, or its newest version is a
 * delete); a compaction that later sees the whole chain, from the initial
 * put to a delete, drops all of it at any level. Breaking the contract can
 * resurrect an older version; {@code verify_initial_puts} checks it on
 * write. Pessimistic and optimistic transactions support it; other
 * transactions throw with {@link Status.Code#NotSupported}.
 */
public final class InitialPuts {
  private InitialPuts() {}

  /** Writes key = value as the key's initial version, default column family. */
  public static void putInitial(final RocksDB db, final byte[] key, final byte[] value)
      throws RocksDBException {
    putInitial(db, null, null, key, value);
  }

  /** The same in a column family (null: the default one). */
  public static void putInitial(final RocksDB db, final ColumnFamilyHandle columnFamilyHandle,
      final byte[] key, final byte[] value) throws RocksDBException {
    putInitial(db, columnFamilyHandle, null, key, value);
  }

  /** The same with write options (null: the defaults). */
  public static void putInitial(final RocksDB db, final WriteOptions writeOptions,
      final byte[] key, final byte[] value) throws RocksDBException {
    putInitial(db, null, writeOptions, key, value);
  }

  /** The same in a column family, with write options (either may be null). */
  public static void putInitial(final RocksDB db, final ColumnFamilyHandle columnFamilyHandle,
      final WriteOptions writeOptions, final byte[] key, final byte[] value)
      throws RocksDBException {
    InitialPutNatives.dbPutInitial(db.nativeHandle_,
        writeOptions == null ? 0 : writeOptions.nativeHandle_, handleOf(columnFamilyHandle),
        key, 0, key.length, value, 0, value.length);
  }

  /** Adds an initial put to a batch, default column family. */
  public static void putInitial(final WriteBatch batch, final byte[] key, final byte[] value)
      throws RocksDBException {
    putInitial(batch, null, key, value);
  }

  /** Adds an initial put to a batch, in a column family (null: the default one). */
  public static void putInitial(final WriteBatch batch,
      final ColumnFamilyHandle columnFamilyHandle, final byte[] key, final byte[] value)
      throws RocksDBException {
    InitialPutNatives.writeBatchPutInitial(
        batch.nativeHandle_, handleOf(columnFamilyHandle), key, value);
  }

  /** Adds an initial put to an indexed batch, default column family. */
  public static void putInitial(final WriteBatchWithIndex batch, final byte[] key,
      final byte[] value) throws RocksDBException {
    putInitial(batch, null, key, value);
  }

  /** Adds an initial put to an indexed batch, in a column family (null: the default one). */
  public static void putInitial(final WriteBatchWithIndex batch,
      final ColumnFamilyHandle columnFamilyHandle, final byte[] key, final byte[] value)
      throws RocksDBException {
    InitialPutNatives.writeBatchWithIndexPutInitial(
        batch.nativeHandle_, handleOf(columnFamilyHandle), key, value);
  }

  /** Writes an initial put in a transaction, default column family. */
  public static void putInitial(final Transaction transaction, final byte[] key,
      final byte[] value) throws RocksDBException {
    putInitial(transaction, null, key, value, false);
  }

  /** The same in a column family (null: the default one). */
  public static void putInitial(final Transaction transaction,
      final ColumnFamilyHandle columnFamilyHandle, final byte[] key, final byte[] value)
      throws RocksDBException {
    putInitial(transaction, columnFamilyHandle, key, value, false);
  }

  /**
   * The same, with Transaction.put's assumeTracked: true skips the
   * transaction's conflict tracking for a key it already tracks.
   */
  public static void putInitial(final Transaction transaction,
      final ColumnFamilyHandle columnFamilyHandle, final byte[] key, final byte[] value,
      final boolean assumeTracked) throws RocksDBException {
    assert (transaction.isOwningHandle());
    InitialPutNatives.transactionPutInitial(
        transaction.nativeHandle_, handleOf(columnFamilyHandle), key, value, assumeTracked);
  }

  private static long handleOf(final ColumnFamilyHandle columnFamilyHandle) {
    return columnFamilyHandle == null ? 0 : columnFamilyHandle.nativeHandle_;
  }
}
