package io.fencedlock.bench;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts failed operations and keeps the first one's message, so a report says what failed.
 * Thread-safe.
 */
final class ErrorTally {
  private final LongAdder count = new LongAdder();
  private final AtomicReference<String> first = new AtomicReference<>("");

  void record(NotGrantedException e) {
    count.increment();
    first.compareAndSet("", String.valueOf(e.getMessage()));
  }

  long count() {
    return count.sum();
  }

  String first() {
    return first.get();
  }
}
