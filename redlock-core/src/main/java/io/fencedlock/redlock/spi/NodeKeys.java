package io.fencedlock.redlock.spi;

/**
 * The keys a node keeps for itself, outside every resource's keys (no lock key may start with
 * {@link #PREFIX}). Part of the protocol every driver implements.
 */
public final class NodeKeys {

  /** Every key a node keeps for itself starts with this. */
  public static final String PREFIX = "redlock:node-";

  /** Present on a node iff its memory is intact; the value is the node's epoch. */
  public static final String MARKER = PREFIX + "init";

  /** The largest token ever written on a node, read when re-admitting a node. */
  public static final String HIGH_WATER = PREFIX + "max-token";

  /**
   * Present on a node without its marker once a client has seen it so: a random name of that empty
   * incarnation of the node, which a restart without data erases.
   */
  public static final String EMPTY = PREFIX + "empty";

  /**
   * The waiter queue of {@code lockKey}: a sorted set of the ids of clients waiting for it, each
   * scored by the node time (ms) at which it stops waiting. Among the node's own keys, so that no
   * lock or fence key can be it; it expires with the longest wait in it.
   */
  public static String waiters(String lockKey) {
    return PREFIX + "waiters:" + lockKey;
  }

  private NodeKeys() {}
}
