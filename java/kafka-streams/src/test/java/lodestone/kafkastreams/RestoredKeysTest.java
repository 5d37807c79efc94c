package lodestone.kafkastreams;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

public class RestoredKeysTest {
  private static byte[] key(final int i) {
    return ("key-" + i).getBytes(StandardCharsets.UTF_8);
  }

  // A key recorded once is never new again (no false negatives: that would
  // make an initial put over a visible value), and most unseen keys are new.
  @Test
  public void recordedKeysAreNeverNewAgain() {
    final RestoredKeys keys = new RestoredKeys(10000);
    int newOnFirstSight = 0;
    for (int i = 0; i < 10000; i++) {
      newOnFirstSight += keys.addIfNew(key(i)) ? 1 : 0;
    }
    for (int i = 0; i < 10000; i++) {
      assertFalse(keys.addIfNew(key(i)), "key " + i);
    }
    assertTrue(newOnFirstSight > 9800, "new on first sight: " + newOnFirstSight);
  }
}
