// A ticker's count read by name from the statistics string, the way a
// program on stock rocksdbjni (no TickerType constants for ours) reads it.

package org.rocksdb;

final class LodestoneTickers {
  private LodestoneTickers() {}

  /** The count of the ticker named `name` (e.g. "rocksdb.location.cache.hit"). */
  static long count(final Statistics statistics, final String name) {
    final String prefix = name + " COUNT : ";
    for (final String line : statistics.toString().split("\n")) {
      if (line.startsWith(prefix)) {
        return Long.parseLong(line.substring(prefix.length()).trim());
      }
    }
    throw new AssertionError("no ticker " + name);
  }
}
