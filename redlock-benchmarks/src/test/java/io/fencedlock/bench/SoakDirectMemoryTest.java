package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The soak's off-heap reading sees direct buffers, where the RESP driver's socket buffers are. */
final class SoakDirectMemoryTest {

  @Test
  void aDirectBufferInUse_isCounted() {
    double before = Soak.directMemoryMb();
    ByteBuffer held = ByteBuffer.allocateDirect(8 * 1024 * 1024);
    double during = Soak.directMemoryMb();
    assertThat(during - before).isGreaterThanOrEqualTo(8.0);
    assertThat(held.capacity()).isEqualTo(8 * 1024 * 1024); // keeps the buffer reachable
  }
}
