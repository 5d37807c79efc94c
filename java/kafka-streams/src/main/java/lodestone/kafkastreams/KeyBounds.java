// The byte-string bounds a store's scans hand RocksDB: Kafka Streams'
// ranges include their end, RocksDB's upper bounds exclude theirs.

package lodestone.kafkastreams;

import java.util.Arrays;

final class KeyBounds {
  private KeyBounds() {}

  /**
   * The first key after {@code key} in bytewise order: {@code key} followed
   * by a zero byte. An exclusive upper bound of it includes {@code key}.
   */
  static byte[] successor(final byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  /**
   * The first key past every key that starts with {@code prefix}: the
   * prefix with its last byte below 0xFF incremented and what follows
   * dropped; null when there is none (the prefix is all 0xFF bytes or
   * empty), and the scan has no upper bound.
   */
  static byte[] prefixEnd(final byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        final byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }
}
