// Lodestone: secondary range deletes from Java (docs/kiwi.md,
// rocksdb/secondary_delete.h). A static method of our own class rather than
// a method of RocksDB, so that upstream's classes stay unpatched.

package org.rocksdb;

import java.util.Objects;

/**
 * Deletes every entry whose <em>delete key</em> lies in a range, where the
 * delete key is an attribute other than the key the column family is sorted
 * on (a timestamp, a tenant). The column family names its extractor in its
 * options, e.g.
 *
 * <pre>{@code
 * LodestoneOptions.apply(cfOptions,
 *     "delete_key_extractor={id=value_prefix;length=8};delete_tile_blocks=8");
 * }</pre>
 *
 * <p>Delete keys compare bytewise (store a timestamp big-endian). The call
 * flushes the column family and writes one MANIFEST record; it reads and
 * rewrites nothing, and compactions reclaim the space later. Reads are MVCC,
 * as under a delete: a snapshot taken before the call still sees what it
 * deleted.
 */
public final class SecondaryDeletes {
  private SecondaryDeletes() {}

  /**
   * Deletes, in the default column family, every put and merge operand
   * written before the call whose delete key d has lo &lt;= d &lt; hi.
   *
   * @throws RocksDBException with {@code InvalidArgument} when lo &gt;= hi or
   *     the column family has no delete key extractor, {@code NotSupported}
   *     for a read-only DB, or the flush's or MANIFEST write's error.
   */
  public static void deleteByDeleteKeyRange(final RocksDB db, final byte[] lo, final byte[] hi)
      throws RocksDBException {
    deleteByDeleteKeyRange(db, null, lo, hi);
  }

  /** The same in a column family (null: the default one). */
  public static void deleteByDeleteKeyRange(final RocksDB db,
      final ColumnFamilyHandle columnFamilyHandle, final byte[] lo, final byte[] hi)
      throws RocksDBException {
    assert (db.isOwningHandle());
    deleteByDeleteKeyRange(db.nativeHandle_,
        columnFamilyHandle == null ? 0 : columnFamilyHandle.nativeHandle_,
        Objects.requireNonNull(lo), Objects.requireNonNull(hi));
  }

  private static native void deleteByDeleteKeyRange(final long dbHandle, final long cfHandle,
      final byte[] lo, final byte[] hi) throws RocksDBException;
}
