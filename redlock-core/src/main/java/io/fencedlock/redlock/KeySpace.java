package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.NodeKeys;

/**
 * The Redis keys the algorithm uses, and which resource names cannot be served. Pure functions;
 * thread-safe.
 *
 * <p>The lock key is the key prefix followed by the resource name, exactly, so that other Redlock
 * clients locking the same name exclude this one. The fence key is derived from the lock key so
 * that both hash to the same Redis Cluster slot: if the lock key has a hash tag ({@code {...}} with
 * something inside), the fence key is the lock key plus {@value #FENCE_SUFFIX}; otherwise the whole
 * lock key becomes the tag, {@code {lock key}:fence}. A lock key with a stray {@code '}'} and no
 * valid tag (such as {@code "{}x"}) cannot be tagged, because a tag ends at the first {@code '}'};
 * it gets the plain suffix too, in another slot, which matters only on Redis Cluster, not on the
 * independent masters Redlock uses.
 *
 * <p>Three kinds of names are refused ({@link #checkResource}), because they would share a key with
 * another resource or with the node itself:
 *
 * <ul>
 *   <li>lock keys starting with {@value #NODE_KEY_PREFIX}: the node's own keys live there;
 *   <li>lock keys that are a whole hash tag, {@code {X}}: their fence key would be {@code
 *       {X}:fence}, which is already the fence key of {@code X};
 *   <li>lock keys that are the fence key of another name: ending in {@value #FENCE_SUFFIX} after a
 *       part that has a hash tag or a {@code '}'}.
 * </ul>
 *
 * With these refused, no two names share a key and no name touches a node key (see {@code
 * KeySpaceProperties}), while every name without braces, and every tagged name not of those shapes,
 * is served under its own name.
 */
final class KeySpace {

  /** Every key a node keeps for itself starts with this; no lock key may. */
  static final String NODE_KEY_PREFIX = NodeKeys.PREFIX;

  private static final String FENCE_SUFFIX = ":fence";

  private final String prefix;

  KeySpace(String prefix) {
    this.prefix = prefix;
  }

  String lockKey(String resource) {
    return prefix + resource;
  }

  String fenceKey(String resource) {
    String lockKey = lockKey(resource);
    return takesPlainSuffix(lockKey) ? lockKey + FENCE_SUFFIX : "{" + lockKey + "}" + FENCE_SUFFIX;
  }

  /**
   * Checks that {@code resource} can be served: its keys are its own (see the class comment).
   *
   * @throws IllegalArgumentException naming {@code parameter} if it cannot
   */
  void checkResource(String parameter, String resource) {
    checkEncodable(parameter, resource);
    String lockKey = lockKey(resource);
    if (lockKey.startsWith(NODE_KEY_PREFIX)) {
      throw reserved(
          parameter, resource, "keys starting with '" + NODE_KEY_PREFIX + "' are the nodes' own");
    }
    if (isWholeHashTag(lockKey)) {
      throw reserved(
          parameter,
          resource,
          "a key that is a whole hash tag {X} would share its fence key with X;"
              + " add something outside the braces, such as a ':lock' suffix");
    }
    if (lockKey.endsWith(FENCE_SUFFIX)
        && takesPlainSuffix(lockKey.substring(0, lockKey.length() - FENCE_SUFFIX.length()))) {
      throw reserved(parameter, resource, "it is the fence key of another resource");
    }
  }

  /**
   * Checks a key prefix: one that starts with {@value #NODE_KEY_PREFIX} would make every name
   * reserved.
   *
   * @throws IllegalArgumentException naming {@code parameter} if it cannot be used
   */
  static void checkPrefix(String parameter, String prefix) {
    checkEncodable(parameter, prefix);
    if (prefix.startsWith(NODE_KEY_PREFIX)) {
      throw new IllegalArgumentException(
          parameter
              + " '"
              + prefix
              + "' is reserved: keys starting with '"
              + NODE_KEY_PREFIX
              + "' are the nodes' own");
    }
  }

  /**
   * Keys go to Redis as UTF-8, where an unpaired surrogate becomes '?': {@code "a\uD800"} and
   * {@code "a?"} would be one key under two names.
   */
  private static void checkEncodable(String parameter, String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++; // a pair: one code point
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            parameter
                + " has an unpaired UTF-16 surrogate at index "
                + i
                + ", which cannot be sent to Redis as UTF-8");
      }
    }
  }

  private static IllegalArgumentException reserved(String parameter, String resource, String why) {
    return new IllegalArgumentException(
        parameter + " " + ResourceNames.quoted(resource) + " is reserved: " + why);
  }

  /** Whether the fence key is the lock key plus the suffix (tagged, or untaggable). */
  private static boolean takesPlainSuffix(String lockKey) {
    return hasHashTag(lockKey) || lockKey.indexOf('}') >= 0;
  }

  /** {@code {X}} with X non-empty and without '}': the whole key is its own tag. */
  private static boolean isWholeHashTag(String key) {
    return key.length() > 2 && key.charAt(0) == '{' && key.indexOf('}') == key.length() - 1;
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
