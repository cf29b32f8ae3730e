package io.fencedlock.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The keyspace of one simulated Redis node: string values with an optional expiry in milliseconds
 * of the node's own clock, with Redis's rules exactly: a key with expiry {@code at} exists while
 * the clock reads at most {@code at} (Redis expires when {@code now > at}), {@code PTTL} is {@code
 * at - now}, {@code PX ttl} and {@code PEXPIRE ttl} set {@code at = now + ttl}. Expiry is lazy, as
 * Redis's is on access; {@link #peek} looks without removing, for the invariants, which must not
 * change what they watch. Not thread-safe: the simulation has one.
 */
public final class NodeStore {
  /** No expiry (Redis: PTTL -1). */
  public static final long PERSISTENT = Long.MAX_VALUE;

  /**
   * A stored value and its expiry in node milliseconds ({@link #PERSISTENT} for none). A sorted set
   * (a waiter queue) has a null value and its members in {@code scores}.
   */
  public static final class Entry {
    @Nullable String value;
    long expiresAtMillis;
    @Nullable Map<String, Long> scores;

    Entry(@Nullable String value, long expiresAtMillis) {
      this.value = value;
      this.expiresAtMillis = expiresAtMillis;
    }

    public @Nullable String value() {
      return value;
    }

    /** A sorted set's members and scores, or null for a string. */
    public @Nullable Map<String, Long> scores() {
      return scores;
    }

    public long expiresAtMillis() {
      return expiresAtMillis;
    }
  }

  private final Map<String, Entry> keys = new HashMap<>();
  private final LongSupplier clockMillis;

  /**
   * @param clockMillis the node's clock, in milliseconds (it may step either way)
   */
  public NodeStore(LongSupplier clockMillis) {
    this.clockMillis = clockMillis;
  }

  public long nowMillis() {
    return clockMillis.getAsLong();
  }

  /** GET: the value, or null if absent or expired (an expired key is removed, as on access). */
  public @Nullable String get(String key) {
    Entry e = live(key);
    return e == null ? null : e.value;
  }

  /** SET key value (no expiry, drops any expiry, like a plain SET). */
  public void set(String key, String value) {
    keys.put(key, new Entry(value, PERSISTENT));
  }

  /** SET key value NX PX ttl: whether it was set. */
  public boolean setNxPx(String key, String value, long ttlMillis) {
    if (live(key) != null) {
      return false;
    }
    keys.put(key, new Entry(value, nowMillis() + ttlMillis));
    return true;
  }

  /** SET key value NX (no expiry): whether it was set. */
  public boolean setNx(String key, String value) {
    if (live(key) != null) {
      return false;
    }
    set(key, value);
    return true;
  }

  /** DEL: whether a key was removed. */
  public boolean del(String key) {
    return live(key) != null && keys.remove(key) != null;
  }

  public boolean exists(String key) {
    return live(key) != null;
  }

  /** PTTL: -2 if absent, -1 if persistent, else the milliseconds left (0 in its last ms). */
  public long pttl(String key) {
    Entry e = live(key);
    if (e == null) {
      return -2;
    }
    return e.expiresAtMillis == PERSISTENT ? -1 : e.expiresAtMillis - nowMillis();
  }

  /** PEXPIRE key ttl (ttl positive): whether the key exists. */
  public boolean pexpire(String key, long ttlMillis) {
    Entry e = live(key);
    if (e == null) {
      return false;
    }
    e.expiresAtMillis = nowMillis() + ttlMillis;
    return true;
  }

  /** ZADD key score member (adds, or moves the member's score); creates the key persistent. */
  public void zadd(String key, long score, String member) {
    Entry e = live(key);
    if (e == null) {
      e = new Entry(null, PERSISTENT);
      e.scores = new HashMap<>();
      keys.put(key, e);
    }
    zset(key, e).put(member, score);
  }

  /** ZREM key member; like Redis, the key goes when its last member does. */
  public void zrem(String key, String member) {
    Entry e = live(key);
    if (e != null) {
      zset(key, e).remove(member);
      dropIfEmpty(key, e);
    }
  }

  /** ZREMRANGEBYSCORE key -inf max. */
  public void zremUpTo(String key, long maxScore) {
    Entry e = live(key);
    if (e != null) {
      zset(key, e).values().removeIf(score -> score <= maxScore);
      dropIfEmpty(key, e);
    }
  }

  /**
   * ZPOPMIN key: the member with the lowest score (ties: the lexicographically lowest, as Redis
   * orders equal scores by member bytes; ids here are ASCII), or null when the key is absent.
   */
  public @Nullable String zpopmin(String key) {
    Entry e = live(key);
    if (e == null) {
      return null;
    }
    Map<String, Long> scores = zset(key, e);
    String first = null;
    for (Map.Entry<String, Long> m : scores.entrySet()) {
      if (first == null || ORDER.compare(m, Map.entry(first, scores.get(first))) < 0) {
        first = m.getKey();
      }
    }
    if (first != null) {
      scores.remove(first);
    }
    dropIfEmpty(key, e);
    return first;
  }

  /**
   * ZRANGE key 0 -1 WITHSCORES, as member to score in Redis's order (empty when absent or a
   * string).
   */
  public Map<String, Long> zrange(String key) {
    Entry e = live(key);
    Map<String, Long> ordered = new LinkedHashMap<>();
    if (e != null && e.scores != null) {
      TreeSet<Map.Entry<String, Long>> sorted = new TreeSet<>(ORDER);
      sorted.addAll(zset(key, e).entrySet());
      for (Map.Entry<String, Long> m : sorted) {
        ordered.put(m.getKey(), m.getValue());
      }
    }
    return ordered;
  }

  private static final Comparator<Map.Entry<String, Long>> ORDER =
      Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey());

  private static Map<String, Long> zset(String key, Entry e) {
    if (e.scores == null) {
      // Redis would answer WRONGTYPE; no script mixes the two kinds on one key
      throw new IllegalStateException("not a sorted set: " + key);
    }
    return e.scores;
  }

  private void dropIfEmpty(String key, Entry e) {
    if (e.scores != null && e.scores.isEmpty()) {
      keys.remove(key);
    }
  }

  /** FLUSHALL: a restart without data. */
  public void wipe() {
    keys.clear();
  }

  /** The entry as it stands, expired or not, without touching it (for invariants). */
  public @Nullable Entry peek(String key) {
    return keys.get(key);
  }

  /** The keys that exist now, in no particular order (for the differential test and end checks). */
  public List<String> liveKeys() {
    List<String> live = new ArrayList<>();
    long now = nowMillis();
    for (Map.Entry<String, Entry> e : keys.entrySet()) {
      if (!expired(e.getValue(), now)) {
        live.add(e.getKey());
      }
    }
    return live;
  }

  private @Nullable Entry live(String key) {
    Entry e = keys.get(key);
    if (e != null && expired(e, nowMillis())) {
      keys.remove(key);
      return null;
    }
    return e;
  }

  private static boolean expired(Entry e, long now) {
    return e.expiresAtMillis != PERSISTENT && now > e.expiresAtMillis;
  }
}
