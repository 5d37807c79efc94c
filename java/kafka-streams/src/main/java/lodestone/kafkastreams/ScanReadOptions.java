// The read options of one bounded scan, kept by the store and refilled for
// each scan: allocating a ReadOptions and two Slices per range call (each a
// JNI call, a native allocation and a copy, and as many again to free them)
// is a measurable share of a short range's cost (store_bench.sh).

package lodestone.kafkastreams;

import java.nio.ByteBuffer;
import org.rocksdb.DirectSlice;
import org.rocksdb.ReadOptions;

/**
 * A {@link ReadOptions} whose {@code iterate_lower_bound} and {@code
 * iterate_upper_bound} point at native slices over direct buffers owned
 * here.
 *
 * <p>Call grammar: {@code (setBounds readOptions)* close}. An iterator made
 * from {@link #readOptions} reads the bound slices for its whole life, so
 * {@code setBounds} and {@code close} come only after that iterator has
 * closed. Not thread-safe.
 */
final class ScanReadOptions implements AutoCloseable {
  private final ReadOptions readOptions = new ReadOptions();
  private final Bound lower = new Bound();
  private final Bound upper = new Bound();

  /**
   * Bounds the next scan to {@code lower <= key < upper}; a null bound is
   * absent. Copies both.
   */
  void setBounds(final byte[] lowerKey, final byte[] upperKey) {
    if (lower.set(lowerKey)) {
      readOptions.setIterateLowerBound(lower.target());
    }
    if (upper.set(upperKey)) {
      readOptions.setIterateUpperBound(upper.target());
    }
  }

  ReadOptions readOptions() {
    return readOptions;
  }

  @Override
  public void close() {
    readOptions.close();
    lower.close();
    upper.close();
  }

  // One bound: a direct buffer that holds its bytes and a slice over them,
  // both replaced only for a longer key.
  private static final class Bound {
    private static final int MIN_CAPACITY = 64;
    private ByteBuffer buffer;
    private DirectSlice slice;
    private boolean present;  // Whether the ReadOptions points at slice.

    // Holds key (null: no bound). Returns whether the ReadOptions must be
    // pointed at target() again.
    boolean set(final byte[] key) {
      if (key == null) {
        final boolean wasPresent = present;
        present = false;
        return wasPresent;
      }
      boolean replaced = false;
      if (buffer == null || buffer.capacity() < key.length) {
        close();  // The caller points the ReadOptions at the new slice.
        buffer = ByteBuffer.allocateDirect(
            Math.max(MIN_CAPACITY, Integer.highestOneBit(key.length) << 1));
        slice = new DirectSlice(buffer, 0);
        replaced = true;
      }
      buffer.clear();
      buffer.put(key);
      slice.setLength(key.length);
      final boolean repoint = replaced || !present;
      present = true;
      return repoint;
    }

    DirectSlice target() {
      return present ? slice : null;
    }

    void close() {
      if (slice != null) {
        slice.close();
        slice = null;
      }
    }
  }
}
