package io.fencedlock.redlock;

/**
 * Names the pub/sub channels on which nodes announce that a lock key was released: the lock's own
 * channel, which every client waiting for the lock listens to, and one per waiting client, on which
 * the lock's lead node names that client as the next to try (release.lua). Channels live apart from
 * keys, so the names cannot collide with a resource; a client id has no colon, so one client's
 * channel of one lock is never another's. Stateless.
 */
final class ReleaseChannel {
  static final String PREFIX = "fencedlock:released:";
  static final String NAMED_PREFIX = "fencedlock:next:";

  private ReleaseChannel() {}

  /** The lock's channel. */
  static String of(String lockKey) {
    return PREFIX + lockKey;
  }

  /** What release.lua puts before a waiting client's id to name its channel. */
  static String namedPrefix(String lockKey) {
    return NAMED_PREFIX + lockKey + ":";
  }

  /** The channel on which {@code clientId} hears that it is the next to try for the lock. */
  static String named(String lockKey, String clientId) {
    return namedPrefix(lockKey) + clientId;
  }
}
