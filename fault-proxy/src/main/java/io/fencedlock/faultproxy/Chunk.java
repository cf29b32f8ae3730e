package io.fencedlock.faultproxy;

import java.util.Arrays;

/**
 * One socket read's worth of data travelling through a link; toxics act on chunks. Immutable by
 * convention: the array is never written after the chunk is created.
 *
 * @param data the bytes, never modified
 * @param arrivalNanos when the proxy read them, on the {@link System#nanoTime()} scale
 */
record Chunk(byte[] data, long arrivalNanos) {

  int length() {
    return data.length;
  }

  /** The bytes in {@code [from, to)}, keeping the arrival time. */
  Chunk slice(int from, int to) {
    if (from == 0 && to == data.length) {
      return this;
    }
    return new Chunk(Arrays.copyOfRange(data, from, to), arrivalNanos);
  }
}
