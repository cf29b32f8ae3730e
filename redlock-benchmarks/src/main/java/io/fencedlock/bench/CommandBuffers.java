package io.fencedlock.bench;

import java.nio.ByteBuffer;

/**
 * One direct buffer per calling thread for the raw floors' commands ({@link RespCommands}): each
 * caller encodes into its own, so callers never share one and a write copies nothing into a
 * temporary buffer. A buffer is reused by its thread once the command it holds was sent.
 */
final class CommandBuffers {
  private static final int INITIAL_CAPACITY = 256;

  private final ThreadLocal<ByteBuffer> buffers =
      ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(INITIAL_CAPACITY));

  /** The calling thread's buffer, large enough for any command on {@code key}. */
  ByteBuffer forKey(String key) {
    ByteBuffer buffer = buffers.get();
    int capacity = RespCommands.capacityFor(key);
    if (buffer.capacity() < capacity) {
      buffer = ByteBuffer.allocateDirect(capacity);
      buffers.set(buffer);
    }
    return buffer;
  }
}
