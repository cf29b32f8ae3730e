package io.fencedlock.bench;

import org.jspecify.annotations.Nullable;

/**
 * The handlers of one connection's commands whose replies have not arrived yet, oldest first: Redis
 * answers a connection's commands in the order it received them, so the next reply belongs to the
 * oldest handler. A bounded ring with one consumer (the I/O thread) and producers that take turns
 * under the connection's write lock, which also orders their writes to the socket the same way.
 * Allocates nothing.
 */
final class PendingReplies {
  private final @Nullable ReplyHandler[] slots;
  private final int mask;

  /** Next slot to read; written by the consumer only. */
  private volatile long head;

  /** Next slot to fill; written by producers only, under their lock. */
  private volatile long tail;

  /**
   * @param capacity a power of two
   */
  PendingReplies(int capacity) {
    if (capacity <= 0 || Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
    }
    this.slots = new ReplyHandler[capacity];
    this.mask = capacity - 1;
  }

  /** Appends {@code handler}; false if the ring is full. Producers must hold one common lock. */
  boolean offer(ReplyHandler handler) {
    long t = tail;
    if (t - head == slots.length) {
      return false;
    }
    slots[(int) (t & mask)] = handler;
    tail = t + 1; // publishes the slot to the consumer
    return true;
  }

  /** Removes and returns the oldest handler, or null if none waits. Consumer only. */
  @Nullable ReplyHandler poll() {
    long h = head;
    if (h == tail) {
      return null;
    }
    int index = (int) (h & mask);
    ReplyHandler handler = slots[index];
    slots[index] = null;
    head = h + 1; // frees the slot for producers
    return handler;
  }

  int size() {
    return (int) (tail - head);
  }
}
