// A store's scan: a RocksDB iterator whose bounds RocksDB itself checks.

package lodestone.kafkastreams;

import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Entries with {@code lower <= key < upper} (either bound may be absent),
 * ascending or descending. The bounds go to RocksDB as {@code
 * iterate_lower_bound} / {@code iterate_upper_bound} rather than being
 * checked here, as Kafka Streams' own store does: a bounded seek is what
 * lets a table's CRaFT range filter answer "nothing in range", and what
 * lets scan-time tombstone conversion see where a scan ends.
 *
 * <p>Kafka Streams' iterator contract: {@code next} past the end throws
 * {@link NoSuchElementException}; any use after {@link #close} (by the
 * caller, or by the store closing) throws {@link
 * InvalidStateStoreException}. Not thread-safe.
 */
final class LodestoneKeyValueIterator implements KeyValueIterator<Bytes, byte[]> {
  private final String storeName;
  private final boolean forward;
  private final Runnable onClose;
  private final RocksIterator iterator;
  private KeyValue<Bytes, byte[]> next;  // null: not read yet (or at the end)
  private boolean open = true;

  /**
   * @param iterator made with read options whose bounds stay valid until
   *     {@code onClose} runs; this iterator closes it
   * @param onClose runs once, after {@code iterator} has closed
   */
  LodestoneKeyValueIterator(final String storeName, final RocksIterator iterator,
      final boolean forward, final Runnable onClose) {
    this.storeName = storeName;
    this.forward = forward;
    this.onClose = onClose;
    this.iterator = iterator;
    if (forward) {
      iterator.seekToFirst();  // The lower bound, when there is one.
    } else {
      iterator.seekToLast();  // Before the upper bound.
    }
  }

  @Override
  public synchronized boolean hasNext() {
    checkOpen();
    if (next == null && iterator.isValid()) {
      next = KeyValue.pair(Bytes.wrap(iterator.key()), iterator.value());
      if (forward) {
        iterator.next();
      } else {
        iterator.prev();
      }
    }
    if (next == null) {
      try {
        iterator.status();
      } catch (final RocksDBException e) {
        throw new ProcessorStateException("Error while scanning store " + storeName, e);
      }
    }
    return next != null;
  }

  @Override
  public synchronized KeyValue<Bytes, byte[]> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    final KeyValue<Bytes, byte[]> entry = next;
    next = null;
    return entry;
  }

  @Override
  public synchronized Bytes peekNextKey() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return next.key;
  }

  @Override
  public synchronized void close() {
    if (!open) {
      return;
    }
    open = false;
    iterator.close();
    onClose.run();
  }

  private void checkOpen() {
    if (!open) {
      throw new InvalidStateStoreException("RocksDB iterator for store " + storeName
          + " has closed");
    }
  }
}
