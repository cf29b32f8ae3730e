package io.fencedlock.redlock.internal;

/**
 * The Redis keys the algorithm uses. Pure functions; thread-safe.
 *
 * <p>The fence key is derived from the lock key so that both hash to the same Redis Cluster
 * slot: if the lock key already has a hash tag ({@code {...}} with something inside), the
 * fence key keeps it; otherwise the whole lock key becomes the tag. One case cannot be
 * tagged: a key with a stray {@code '}'} and no valid tag (such as {@code "{}x"}), because a
 * tag ends at the first {@code '}'}. Its fence key is still distinct but may live in another
 * slot, which matters only on Redis Cluster, not on the independent masters Redlock uses.
 */
public final class KeySpace {

  /** Present on a node iff its memory is intact; the value is the node's epoch. */
  public static final String NODE_MARKER = "redlock:node-init";

  /** The largest token ever written on a node, read when re-admitting a node. */
  public static final String NODE_HIGH_WATER = "redlock:node-max-token";

  private static final String FENCE_SUFFIX = ":fence";

  private final String prefix;

  public KeySpace(String prefix) {
    this.prefix = prefix;
  }

  public String lockKey(String resource) {
    return prefix + resource;
  }

  public String fenceKey(String resource) {
    String lockKey = lockKey(resource);
    if (hasHashTag(lockKey) || lockKey.indexOf('}') >= 0) {
      return lockKey + FENCE_SUFFIX;
    }
    return "{" + lockKey + "}" + FENCE_SUFFIX;
  }

  /** Redis Cluster's rule: the first '{' followed later by a '}' with at least one char between. */
  static boolean hasHashTag(String key) {
    int open = key.indexOf('{');
    if (open < 0) {
      return false;
    }
    int close = key.indexOf('}', open + 1);
    return close > open + 1;
  }
}
