package io.fencedlock.redlock.driver;

import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.NodeKeys;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One call of a node script: the script, its KEYS and its ARGV, as every driver sends them. The one
 * place that knows each script's arguments (the scripts' headers in {@code
 * src/main/resources/io/fencedlock/redlock/lua/} say what they mean); drivers only choose how to
 * send a call (EVALSHA, the NOSCRIPT rule) and how to parse its reply ({@link NodeReplies}).
 *
 * @param script the script
 * @param keys its KEYS, in order
 * @param args its ARGV, in order
 */
public record NodeScriptCall(LuaScript script, String[] keys, String[] args) {

  /**
   * acquire.lua, the lock step of a fenced acquire ({@code request.fenceKey()} not null), with the
   * TTL and token as text.
   *
   * @param markerCheck "1" to refuse on a node without its marker, "0" not to (unsafe)
   */
  public static NodeScriptCall acquire(
      LockRequest request, String ttlMillis, String predictedToken, String markerCheck) {
    String predecessor = request.predecessorOwner();
    String waiter = request.waiter();
    if (waiter != null) {
      String[] keys = {
        request.lockKey(),
        request.fenceKey(),
        NodeKeys.MARKER,
        NodeKeys.HIGH_WATER,
        NodeKeys.waiters(request.lockKey())
      };
      String[] args = {
        request.owner(),
        ttlMillis,
        markerCheck,
        predictedToken,
        predecessor == null ? "" : predecessor,
        waiter,
        Long.toString(Math.max(1, request.waitMillis()))
      };
      return new NodeScriptCall(LuaScript.ACQUIRE, keys, args);
    }
    String[] keys = {request.lockKey(), request.fenceKey(), NodeKeys.MARKER, NodeKeys.HIGH_WATER};
    String[] args =
        predecessor == null
            ? new String[] {request.owner(), ttlMillis, markerCheck, predictedToken}
            : new String[] {request.owner(), ttlMillis, markerCheck, predictedToken, predecessor};
    return new NodeScriptCall(LuaScript.ACQUIRE, keys, args);
  }

  /** handoff.lua, the lock step of an unfenced acquire that succeeds {@code predecessorOwner}. */
  public static NodeScriptCall handoff(LockRequest request, String ttlMillis) {
    return new NodeScriptCall(
        LuaScript.HANDOFF,
        new String[] {request.lockKey()},
        new String[] {request.owner(), ttlMillis, request.predecessorOwner()});
  }

  /** fence.lua, phase 2. */
  public static NodeScriptCall fence(String lockKey, String fenceKey, String owner, long token) {
    return new NodeScriptCall(
        LuaScript.FENCE,
        new String[] {lockKey, fenceKey, NodeKeys.HIGH_WATER},
        new String[] {owner, Long.toString(token)});
  }

  /** extend.lua. */
  public static NodeScriptCall extend(String lockKey, String owner, long ttlMillis) {
    return new NodeScriptCall(
        LuaScript.EXTEND, new String[] {lockKey}, new String[] {owner, Long.toString(ttlMillis)});
  }

  /**
   * release.lua, announced on {@code announceOn} unless it is null: by every node that deletes,
   * with the owner id as the message.
   */
  public static NodeScriptCall release(String lockKey, String owner, @Nullable String announceOn) {
    return new NodeScriptCall(
        LuaScript.RELEASE,
        new String[] {lockKey},
        announceOn == null ? new String[] {owner} : new String[] {owner, announceOn});
  }

  /**
   * release.lua on the lead node, announcing for the whole release: names the first waiter of the
   * lock's waiter queue that still listens on {@code namedPrefix} + its id, telling it {@code
   * token}, or tells everyone on {@code announceOn} if none does.
   */
  public static NodeScriptCall releaseNamingNext(
      String lockKey, String owner, String announceOn, String namedPrefix, long token) {
    return new NodeScriptCall(
        LuaScript.RELEASE,
        new String[] {lockKey, NodeKeys.waiters(lockKey)},
        new String[] {owner, announceOn, namedPrefix, Long.toString(token)});
  }

  /** acquire-all.lua. */
  public static NodeScriptCall acquireAll(
      List<String> lockKeys,
      List<String> fenceKeys,
      String owner,
      long ttlMillis,
      String markerCheck) {
    List<String> keys = new ArrayList<>(lockKeys);
    keys.addAll(fenceKeys);
    keys.add(NodeKeys.MARKER);
    return new NodeScriptCall(
        LuaScript.ACQUIRE_ALL,
        keys.toArray(String[]::new),
        new String[] {owner, Long.toString(ttlMillis), markerCheck});
  }

  /** fence-all.lua. */
  public static NodeScriptCall fenceAll(
      List<String> lockKeys, List<String> fenceKeys, String owner, List<Long> tokens) {
    List<String> keys = new ArrayList<>(lockKeys);
    keys.addAll(fenceKeys);
    keys.add(NodeKeys.HIGH_WATER);
    List<String> args = new ArrayList<>(List.of(owner));
    tokens.forEach(token -> args.add(Long.toString(token)));
    return new NodeScriptCall(
        LuaScript.FENCE_ALL, keys.toArray(String[]::new), args.toArray(String[]::new));
  }

  /** extend-all.lua. */
  public static NodeScriptCall extendAll(List<String> lockKeys, String owner, long ttlMillis) {
    return new NodeScriptCall(
        LuaScript.EXTEND_ALL,
        lockKeys.toArray(String[]::new),
        new String[] {owner, Long.toString(ttlMillis)});
  }

  /** release-all.lua, announcing each delete on its channel unless {@code channels} is null. */
  public static NodeScriptCall releaseAll(
      List<String> lockKeys, String owner, @Nullable List<String> channels) {
    List<String> args = new ArrayList<>(List.of(owner));
    if (channels != null) {
      args.addAll(channels);
    }
    return new NodeScriptCall(
        LuaScript.RELEASE_ALL, lockKeys.toArray(String[]::new), args.toArray(String[]::new));
  }

  /** name-empty-node.lua. */
  public static NodeScriptCall nameEmptyNode(String freshName) {
    return new NodeScriptCall(
        LuaScript.NAME_EMPTY_NODE,
        new String[] {NodeKeys.MARKER, NodeKeys.EMPTY},
        new String[] {freshName});
  }

  /** init-node.lua, checking the incarnation name unless it is null. */
  public static NodeScriptCall initNode(long epoch, @Nullable String incarnation) {
    return new NodeScriptCall(
        LuaScript.INIT_NODE,
        new String[] {NodeKeys.MARKER, NodeKeys.HIGH_WATER, NodeKeys.EMPTY},
        incarnation == null
            ? new String[] {Long.toString(epoch)}
            : new String[] {Long.toString(epoch), incarnation});
  }
}
