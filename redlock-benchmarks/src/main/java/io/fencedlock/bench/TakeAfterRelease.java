package io.fencedlock.bench;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The replies to the release step of a two-step handoff ({@link
 * FloorRawHandoffSystem.Step#RELEASE_THEN_TAKE}): the first node that deleted the key starts the
 * next client's take at once, on the thread that read that reply (as that node's message would
 * start it in another process); or, if the reply came before the releaser had written the release
 * to every connection ({@link #sent}), the releaser starts it once it has. So the take goes out on
 * each connection after the release, and runs after it on every node. If no node deleted the key,
 * the last reply starts the take all the same, so that the next client is answered (and, refused,
 * passes the lock on). The take runs exactly once. Thread-safe.
 */
final class TakeAfterRelease implements ReplyHandler {
  /** The release written to every connection, and a reply that starts the take. */
  private static final int BOTH = 2;

  private final int nodes;
  private final Runnable take;
  private final AtomicInteger replies = new AtomicInteger();
  private final AtomicBoolean triggered = new AtomicBoolean();
  private final AtomicInteger ready = new AtomicInteger();

  /** How many times the releaser, not a reply, started the take (for Probe and tests). */
  private static final AtomicInteger STARTED_BY_RELEASER = new AtomicInteger();

  /**
   * @param nodes how many nodes the release went to
   * @param take sends the next client's take; must not throw
   */
  TakeAfterRelease(int nodes, Runnable take) {
    this.nodes = nodes;
    this.take = take;
  }

  /** By the releaser, once the release is written to every connection. */
  void sent() {
    if (ready.incrementAndGet() == BOTH) {
      STARTED_BY_RELEASER.incrementAndGet();
      take.run();
    }
  }

  @Override
  public void onReply(ReplyKind kind, long integer, @Nullable String error) {
    boolean deleted = kind == ReplyKind.INTEGER && integer == 1;
    if ((replies.incrementAndGet() == nodes || deleted)
        && triggered.compareAndSet(false, true)
        && ready.incrementAndGet() == BOTH) {
      take.run();
    }
  }

  /** How many takes so far, in this JVM, waited for the releaser to finish writing. */
  static int startedByReleaser() {
    return STARTED_BY_RELEASER.get();
  }
}
