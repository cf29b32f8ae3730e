package io.fencedlock.redlock;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per resource, the highest fence counter this client has seen (in its own tokens and in the
 * counters nodes returned, granted or refused), so that the next acquire can predict its token and
 * write it in phase 1. A hint is only a guess: nodes accept a predicted token only above their own
 * counter, and a wrong or missing guess costs the second round trip, never safety. Bounded (least
 * recently used resources are forgotten); thread-safe.
 *
 * <p>Also per resource, when this client last met a rival on it (a node refused one of its lock
 * steps for another owner), so that its next waiting acquire of a contended lock asks the lead node
 * first like the waiters it competes with ({@link WaitingAcquire}).
 */
final class TokenHints {
  static final int DEFAULT_CAPACITY = 4096;

  private final Map<String, Long> highest;

  /** Per resource, the ticker reading when a rival was last met; bounded like {@link #highest}. */
  private final Map<String, Long> rivalMetAt;

  TokenHints(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.highest = lru(capacity);
    this.rivalMetAt = lru(capacity);
  }

  private static Map<String, Long> lru(int capacity) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
        return size() > capacity;
      }
    };
  }

  /** Records that a node refused this client's lock step on {@code resource} for another owner. */
  synchronized void metRival(String resource, long now) {
    rivalMetAt.put(resource, now);
  }

  /** Whether this client met a rival on {@code resource} less than {@code withinNanos} ago. */
  synchronized boolean metRivalWithin(String resource, long now, long withinNanos) {
    Long at = rivalMetAt.get(resource);
    return at != null && now - at < withinNanos;
  }

  /**
   * The token to predict for {@code resource}: one above the highest counter seen, or 0 for none.
   */
  synchronized long predict(String resource) {
    Long seen = highest.get(resource);
    return seen == null ? 0 : seen + 1;
  }

  /** Records a counter seen for {@code resource}; lower values than the known one are ignored. */
  synchronized void observe(String resource, long counter) {
    if (counter > 0) {
      highest.merge(resource, counter, Math::max);
    }
  }
}
