package lodestone.kafkastreams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

public class KeyBoundsTest {
  @Test
  public void successorIncludesTheKeyAndNothingBetween() {
    assertArrayEquals(new byte[] {'a', 0}, KeyBounds.successor(new byte[] {'a'}));
    assertArrayEquals(new byte[] {0}, KeyBounds.successor(new byte[0]));
  }

  @Test
  public void prefixEndIsPastEveryKeyWithThePrefix() {
    assertArrayEquals(new byte[] {'a', 'c'}, KeyBounds.prefixEnd(new byte[] {'a', 'b'}));
    assertArrayEquals(new byte[] {'b'}, KeyBounds.prefixEnd(new byte[] {'a', (byte) 0xFF}));
    assertNull(KeyBounds.prefixEnd(new byte[] {(byte) 0xFF, (byte) 0xFF}));
    assertNull(KeyBounds.prefixEnd(new byte[0]));
    final Random random = new Random(7);
    for (int n = 0; n < 10000; n++) {
      final byte[] prefix = new byte[1 + random.nextInt(3)];
      random.nextBytes(prefix);
      final byte[] key = new byte[prefix.length + random.nextInt(3)];
      random.nextBytes(key);
      final boolean hasPrefix = java.util.Arrays.equals(
          prefix, 0, prefix.length, key, 0, prefix.length);
      final byte[] end = KeyBounds.prefixEnd(prefix);
      final boolean below = end == null || java.util.Arrays.compareUnsigned(key, end) < 0;
      final boolean atOrAbove = java.util.Arrays.compareUnsigned(key, prefix) >= 0;
      if (hasPrefix) {
        assertTrue(below && atOrAbove);
      } else {
        assertFalse(below && atOrAbove);
      }
    }
  }
}
