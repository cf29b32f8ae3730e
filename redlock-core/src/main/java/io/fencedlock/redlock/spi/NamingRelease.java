package io.fencedlock.redlock.spi;

/**
 * What a release on the lock's lead node did ({@link NodeDriver#releaseNamingNext}): whether it
 * deleted, and whom it told.
 */
public enum NamingRelease {
  /** The lock did not hold the owner: nothing was deleted or announced. */
  KEPT,
  /** Deleted; no queued waiter listened, so every client waiting for the lock was told. */
  TOLD_EVERYONE,
  /**
   * Deleted, and a queued waiter that listens on its own channel was named: that client's next
   * attempt deletes the released owner's key on every node itself (see acquire.lua's ARGV[5]).
   */
  NAMED;

  /** release.lua's reply with the waiter queue: 0, 1 or 2. */
  public static NamingRelease ofScriptReply(long reply) {
    if (reply == 0) {
      return KEPT;
    }
    if (reply == 1) {
      return TOLD_EVERYONE;
    }
    if (reply == 2) {
      return NAMED;
    }
    throw new IllegalStateException("release.lua replied " + reply);
  }
}
