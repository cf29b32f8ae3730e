package io.fencedlock.redlock.spi;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Release announcements from the nodes: a release that deletes a key publishes the owner id on the
 * lock's channel (see {@link NodeDriver#release}). Announcements make waiting acquires retry
 * earlier, deleting the announced owner's key first where it is still there; a lost one costs a
 * retry delay, never safety. Only the library's release scripts may publish on these channels.
 * Thread-safe.
 */
public interface ReleaseFeed {

  /**
   * Sets the one listener of this feed, called with the channel and the owner id of every
   * announcement received on a subscribed channel, once per node that announced it.
   */
  void listen(BiConsumer<String, String> onRelease);

  /** Subscribes on every node; completes once some node confirmed, fails if none could. */
  CompletableFuture<Void> subscribe(String channel);

  /** Unsubscribes on every node (after any subscribe of the same channel). */
  void unsubscribe(String channel);
}
