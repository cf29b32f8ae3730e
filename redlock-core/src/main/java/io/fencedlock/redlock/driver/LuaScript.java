package io.fencedlock.redlock.driver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A Lua script loaded once from the classpath, with the SHA-1 digest Redis knows it by, so calls
 * can use EVALSHA and fall back to EVAL only when a node's script cache is empty.
 *
 * @param name the resource file name, for messages
 * @param source the script text
 * @param sha1 lowercase hex SHA-1 of the source, as {@code SCRIPT LOAD} would return it
 */
public record LuaScript(String name, String source, String sha1) {

  private static final String DIRECTORY = "/io/fencedlock/redlock/lua/";

  public static final LuaScript ACQUIRE = load("acquire.lua");
  public static final LuaScript FENCE = load("fence.lua");
  public static final LuaScript EXTEND = load("extend.lua");
  public static final LuaScript RELEASE = load("release.lua");
  public static final LuaScript HANDOFF = load("handoff.lua");
  public static final LuaScript INIT_NODE = load("init-node.lua");
  public static final LuaScript NAME_EMPTY_NODE = load("name-empty-node.lua");
  public static final LuaScript ACQUIRE_ALL = load("acquire-all.lua");
  public static final LuaScript FENCE_ALL = load("fence-all.lua");
  public static final LuaScript EXTEND_ALL = load("extend-all.lua");
  public static final LuaScript RELEASE_ALL = load("release-all.lua");

  /** Every script, loaded into each node's script cache when the client connects. */
  public static final List<LuaScript> ALL =
      List.of(
          ACQUIRE,
          FENCE,
          EXTEND,
          RELEASE,
          HANDOFF,
          INIT_NODE,
          NAME_EMPTY_NODE,
          ACQUIRE_ALL,
          FENCE_ALL,
          EXTEND_ALL,
          RELEASE_ALL);

  /**
   * Whether this is the lock step of an acquire, which a driver never sends twice: the algorithm
   * may send the release that undoes it as soon as it went out, and a second copy sent after a
   * NOSCRIPT would reach the node after that release and take the key again.
   */
  public boolean isLockStep() {
    return this == ACQUIRE || this == HANDOFF || this == ACQUIRE_ALL;
  }

  public static LuaScript load(String name) {
    try (InputStream in = LuaScript.class.getResourceAsStream(DIRECTORY + name)) {
      if (in == null) {
        throw new IllegalStateException("Lua script missing from the classpath: " + name);
      }
      String source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new LuaScript(name, source, digest(source));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Lua script " + name, e);
    }
  }

  /** The SHA-1 digest Redis uses to name a script, as lowercase hex. */
  static String digest(String source) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM must provide SHA-1", e);
    }
  }
}
