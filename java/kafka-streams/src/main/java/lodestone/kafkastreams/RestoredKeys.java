// Which keys a restore into an empty store has written: the keys it may
// write as initial puts are those it has certainly not.

package lodestone.kafkastreams;

/**
 * A Bloom filter over the keys one restore has written. A restore replays a
 * changelog into a store that was empty when it began; a key the filter has
 * never seen therefore has no visible value, which is the initial-put
 * contract, and its first record may be written with {@code putInitial}.
 * A key the filter may have seen (written before, or a false positive) is
 * written with {@code put}, which is always correct. The filter only grows:
 * a restored delete does not clear its key, so the key's next record is a
 * plain put.
 *
 * <p>Sized for {@code expectedKeys} at about 10 bits per key (1% false
 * positives); past that the false-positive rate climbs and more records
 * take the always-correct path. Not thread-safe: one restore, one thread.
 */
final class RestoredKeys {
  private static final int PROBES = 7;
  private final long[] bits;
  private final long numBits;

  RestoredKeys(final long expectedKeys) {
    final long wanted = Math.max(1024, Math.min(expectedKeys, 1L << 31) * 10);
    this.bits = new long[(int) ((wanted + 63) / 64)];
    this.numBits = (long) bits.length * 64;
  }

  /**
   * Records {@code key}; returns true when it was certainly not recorded
   * before (the record may be an initial put).
   */
  boolean addIfNew(final byte[] key) {
    final long hash = hash64(key);
    final long h1 = hash;
    final long h2 = (hash >>> 32) | 1;
    boolean isNew = false;
    for (int i = 0; i < PROBES; i++) {
      final long bit = Math.floorMod(h1 + i * h2, numBits);
      final int word = (int) (bit >>> 6);
      final long mask = 1L << (bit & 63);
      if ((bits[word] & mask) == 0) {
        isNew = true;
        bits[word] |= mask;
      }
    }
    return isNew;
  }

  // 64-bit FNV-1a, then a finalizer that spreads the low bits.
  private static long hash64(final byte[] key) {
    long h = 0xcbf29ce484222325L;
    for (final byte b : key) {
      h ^= b & 0xFF;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h;
  }
}
