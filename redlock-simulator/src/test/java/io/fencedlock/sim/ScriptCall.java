package io.fencedlock.sim;

import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.NamingRelease;
import io.fencedlock.redlock.spi.NodeDriver;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One call of the node protocol, made the same way on a real node (through the default (RESP)
 * driver, so through the real scripts) and on the model; or one of the two things done to both
 * sides alike, a wipe and a time advance. Records, so jqwik shrinks and prints them.
 */
sealed interface ScriptCall {

  /** The call on the real node, or null for wipes and advances (done by the runner). */
  default @Nullable CompletableFuture<?> onRedis(NodeDriver driver) {
    return null;
  }

  /** The call on the model, or null for wipes, advances and releases (the runner plays those). */
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
      @Nullable String predecessor,
      @Nullable String waiter,
      long waitMillis)
      implements ScriptCall {
    LockRequest request() {
      return new LockRequest(
          key,
          fenced ? fenceKey(key) : null,
          owner,
          ttl,
          fenced ? predicted : 0,
          predecessor,
          waiter,
          waitMillis);
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

  /** The three forms of release.lua. */
  enum ReleaseForm {
    /** Delete only. */
    PLAIN,
    /** Every node that deletes publishes the owner id on the lock's channel. */
    CHANNEL,
    /** The lead node's form: names the first queued waiter still listening, else tells everyone. */
    NAMING
  }

  /** A message a node publishes: on which channel, and what. */
  record Published(String channel, String message) {}

  /**
   * A release's reply (whether it deleted; the naming form's {@link NamingRelease}) and the message
   * published with it, if any.
   */
  record Released(Object reply, @Nullable Published message) {}

  /**
   * release.lua in one of its three forms. The runner plays it ({@link #onModel(ScriptModel,
   * Predicate)}): besides the reply, the message the node should publish is compared, and what the
   * naming form takes off the waiter queue shows in the state compared after it.
   */
  record Release(String key, String owner, ReleaseForm form, long token) implements ScriptCall {
    static String channel(String key) {
      return "fencedlock:released:" + key;
    }

    static String namedPrefix(String key) {
      return "fencedlock:next:" + key + ":";
    }

    public CompletableFuture<?> onRedis(NodeDriver d) {
      return switch (form) {
        case PLAIN -> d.release(0, key, owner, null);
        case CHANNEL -> d.release(0, key, owner, channel(key));
        case NAMING -> d.releaseNamingNext(0, key, owner, channel(key), namedPrefix(key), token);
      };
    }

    /**
     * The model's reply (whether it deleted), and the message the node publishes with it (null for
     * none), given which waiters are {@code listening} on their own channels of the lock.
     */
    Released onModel(ScriptModel m, Predicate<String> listening) {
      if (form != ReleaseForm.NAMING) {
        boolean deleted = m.release(key, owner);
        boolean announced = deleted && form == ReleaseForm.CHANNEL;
        return new Released(deleted, announced ? new Published(channel(key), owner) : null);
      }
      String named = m.releaseNamingNext(key, owner, listening);
      Published message;
      if (named == null) {
        message = null;
      } else if (named.isEmpty()) {
        message = new Published(channel(key), owner + "\n");
      } else {
        message = new Published(namedPrefix(key) + named, owner + "\n" + named + "\n" + token);
      }
      return new Released(ScriptModel.reply(named), message);
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
