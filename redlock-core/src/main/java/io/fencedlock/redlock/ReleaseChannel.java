package io.fencedlock.redlock;

/**
 * Names the pub/sub channel on which a node announces that a lock key was released. Channels live
 * apart from keys, so the name cannot collide with a resource. Stateless.
 */
final class ReleaseChannel {
  static final String PREFIX = "fencedlock:released:";

  private ReleaseChannel() {}

  static String of(String lockKey) {
    return PREFIX + lockKey;
  }
}
