// Lodestone: the native calls behind InitialPuts (rocksjni/initial_put.cc).

package org.rocksdb;

/**
 * The native side of {@code putInitial}. The public methods live on the
 * classes users already hold ({@link RocksDB#putInitial(byte[], byte[])},
 * {@link AbstractWriteBatch#putInitial(byte[], byte[])},
 * {@link Transaction#putInitial(byte[], byte[])}); they pass their native
 * handles here. A column family handle of 0 means the default column family;
 * a write options handle of 0 means default write options. Each call throws
 * {@link RocksDBException} with the status of a failed write.
 */
final class InitialPutNatives {
  private InitialPutNatives() {}

  static native void dbPutInitial(final long dbHandle, final long writeOptionsHandle,
      final long cfHandle, final byte[] key, final int keyOffset, final int keyLength,
      final byte[] value, final int valueOffset, final int valueLength) throws RocksDBException;

  static native void writeBatchPutInitial(final long batchHandle, final long cfHandle,
      final byte[] key, final byte[] value) throws RocksDBException;

  static native void writeBatchWithIndexPutInitial(final long batchHandle, final long cfHandle,
      final byte[] key, final byte[] value) throws RocksDBException;

  static native void transactionPutInitial(final long transactionHandle, final long cfHandle,
      final byte[] key, final byte[] value, final boolean assumeTracked)
      throws RocksDBException;
}
