package io.fencedlock.redlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SecureIdsTest {

  @Test
  void idsAre128BitHexAndNeverRepeatAcrossPoolRefills() {
    Environment.SecureIds ids = new Environment.SecureIds(new SecureRandom());
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 10_000; i++) { // about 40 refills of the 4 KiB pool
      String id = ids.get();
      assertThat(id).matches("[0-9a-f]{32}");
      assertThat(seen.add(id)).as("id %d repeats", i).isTrue();
    }
  }

  @Test
  void consecutiveIdsAreDistinctSlicesOfTheGeneratorsOutput() {
    // A generator that counts: each id must be the next 16 bytes it produced, never reused bytes.
    SecureRandom counting =
        new SecureRandom() {
          private int next;

          @Override
          public void nextBytes(byte[] bytes) {
            for (int i = 0; i < bytes.length; i++) {
              bytes[i] = (byte) next++;
            }
          }
        };
    Environment.SecureIds ids = new Environment.SecureIds(counting);
    assertThat(ids.get()).isEqualTo("000102030405060708090a0b0c0d0e0f");
    assertThat(ids.get()).isEqualTo("101112131415161718191a1b1c1d1e1f");
  }
}
