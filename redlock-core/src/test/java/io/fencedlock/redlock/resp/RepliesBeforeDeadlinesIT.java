package io.fencedlock.redlock.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The I/O thread held up by a caller's dependent (issue 37, item 3): every reply that reached the
 * socket meanwhile is delivered once it is free, not timed out, however many there are.
 */
final class RepliesBeforeDeadlinesIT {
  /** The caller's blocking step: far past the node timeout. */
  private static final Duration BLOCK = Timing.scaled(Duration.ofMillis(2500));

  @Test
  void ioThreadBlockedByADependent_moreRepliesArriveThanOneReadTakes_everyOneIsDelivered()
      throws InterruptedException {
    // 4,000 replies of 5 bytes: more than the connection's first read buffer (16 KiB) holds.
    int requests = 4_000;
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver =
            RespNodeDriver.open(
                RedlockConfig.builder()
                    .nodes(nodes.uris())
                    .nodeTimeout(BLOCK.dividedBy(3))
                    .connectTimeout(Timing.AWAIT)
                    .build())) {
      driver.connect(Timing.AWAIT);
      RedisNode node = nodes.node(0);
      CountDownLatch blocking = new CountDownLatch(1);
      // Paused until the dependent is attached, so that it runs on the I/O thread, on the reply.
      node.pause();
      CompletableFuture<Void> blocked =
          driver
              .lock(0, plain("first"))
              .thenAccept(
                  reply -> {
                    blocking.countDown();
                    blockFor(BLOCK);
                  });
      node.resume();
      assertThat(blocking.await(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      List<CompletableFuture<LockReply>> replies = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        replies.add(driver.lock(0, plain("key:" + i)));
      }

      assertThat(blocked).succeedsWithin(BLOCK.plus(Timing.AWAIT));
      for (int i = 0; i < requests; i++) {
        assertThat(replies.get(i))
            .as("request %d", i)
            .succeedsWithin(Timing.AWAIT)
            .isEqualTo(new LockReply.Granted(0, false));
      }
    }
  }

  private static LockRequest plain(String key) {
    return new LockRequest(key, null, "owner", 60_000, 0, null);
  }

  /** The caller's blocking step itself, the scenario under test (not a wait for a condition). */
  private static void blockFor(Duration duration) {
    long end = System.nanoTime() + duration.toNanos();
    long left;
    while ((left = end - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
