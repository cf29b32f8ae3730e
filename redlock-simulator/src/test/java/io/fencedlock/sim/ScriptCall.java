package io.fencedlock.sim;

import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.NodeDriver;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * One call of the node protocol, made the same way on a real node (through the Lettuce driver, so
 * through the real scripts) and on the model; or one of the two things done to both sides alike, a
 * wipe and a time advance. Records, so jqwik shrinks and prints them.
 */
sealed interface ScriptCall {

  /** The call on the real node, or null for wipes and advances (done by the runner). */
  default @Nullable CompletableFuture<?> onRedis(NodeDriver driver) {
    return null;
  }

  /** The call on the model, or null for wipes and advances. */
  default @Nullable Object onModel(ScriptModel model) {
    return null;
  }

  static String fenceKey(String lockKey) {
    return "{" + lockKey + "}:fence";
  }

  record Lock(
      String key,
      boolean fenced,
      String owner,
      long ttl,
      long predicted,
      @Nullable String predecessor)
      implements ScriptCall {
    LockRequest request() {
      return new LockRequest(
          key, fenced ? fenceKey(key) : null, owner, ttl, fenced ? predicted : 0, predecessor);
    }

    public CompletableFuture<?> onRedis(NodeDriver d) {
      return d.lock(0, request());
    }

    public Object onModel(ScriptModel m) {
      return m.lock(request());
    }
  }

  record Fence(String key, String owner, long token) implements ScriptCall {
    public CompletableFuture<?> onRedis(NodeDriver d) {
      return d.writeToken(0, key, fenceKey(key), owner, token);
    }

    public Object onModel(ScriptModel m) {
      return m.writeToken(key, fenceKey(key), owner, token);
    }
  }

  record Extend(String key, String owner, long ttl) implements ScriptCall {
    public CompletableFuture<?> onRedis(NodeDriver d) {
      return d.lengthen(0, key, owner, ttl);
    }

    public Object onModel(ScriptModel m) {
      return m.lengthen(key, owner, ttl);
    }
  }

  /** release.lua; the announcement itself is not compared (pub/sub delivery is asynchronous). */
  record Release(String key, String owner, boolean announce) implements ScriptCall {
    public CompletableFuture<?> onRedis(NodeDriver d) {
      return d.release(0, key, owner, announce ? "fencedlock:released:" + key : null);
    }

    public Object onModel(ScriptModel m) {
      return m.release(key, owner);
    }
  }

  record ReadMarks() implements ScriptCall {
    public CompletableFuture<?> onRedis(NodeDriver d) {
      return d.readMarks(0);
    }

    public Object onModel(ScriptModel m) {
      return m.readMarks();
    }
  }

  record HasMarker() implements ScriptCall {
    public CompletableFuture<?> onRedis(NodeDriver d) {
      return d.hasMarker(0);
    }

    public Object onModel(ScriptModel m) {
      return m.hasMarker();
    }
  }

  record NameEmpty(String freshName) implements ScriptCall {
    public CompletableFuture<?> onRedis(NodeDriver d) {
      return d.nameEmptyIncarnation(0, freshName);
    }

    public Object onModel(ScriptModel m) {
      return m.nameEmptyIncarnation(freshName);
    }
  }

  record Init(long epoch, @Nullable String incarnation) implements ScriptCall {
    public CompletableFuture<?> onRedis(NodeDriver d) {
      return d.initialize(0, epoch, incarnation);
    }

    public Object onModel(ScriptModel m) {
      return m.initialize(epoch, incarnation);
    }
  }

  /** FLUSHALL on the node, a wipe of the model: a restart without data. */
  record Wipe() implements ScriptCall {}

  /** Time passes on both: every TTL on the node shortened by that much, the model's clock moved. */
  record Advance(long millis) implements ScriptCall {}
}
