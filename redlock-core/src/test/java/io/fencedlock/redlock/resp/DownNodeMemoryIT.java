package io.fencedlock.redlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A node that is down costs a connection no memory per connect attempt: with a connect timeout far
 * longer than the test, what a failed attempt allocated must not stay reachable until that timeout
 * passes. Counted as the JVM's direct buffer memory over many failed attempts.
 */
final class DownNodeMemoryIT {

  /** Far longer than the test, so that anything its timer keeps is kept throughout. */
  private static final Duration CONNECT_TIMEOUT = Duration.ofMinutes(10);

  private static final int CONNECTIONS = 16;

  /** Per connection; the backoff (10 ms doubling to 1 s) makes these about 2.3 s. */
  private static final int ATTEMPTS = 8;

  /**
   * Far below what the failed attempts would hold if each kept even its 16 KiB read buffer (2 MiB
   * for 128 attempts), far above what anything else in the test allocates.
   */
  private static final long MARGIN = 512 * 1024;

  @Test
  void refusedConnects_holdNoDirectMemory() {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int closedPort = probe.getLocalPort();
      probe.close(); // nothing listens there now: every connect is refused at once
      assertFailedAttemptsHoldNoDirectMemory(closedPort);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The node accepts and drops each connection, as a proxy in front of a dead server does. */
  @Test
  void droppedConnects_holdNoDirectMemory() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress())) {
      Thread dropper =
          new Thread(
              () -> {
                while (!listener.isClosed()) {
                  try (Socket accepted = listener.accept()) {
                    // closed at once
                  } catch (IOException closed) {
                    return;
                  }
                }
              },
              "dropper");
      dropper.start();
      assertFailedAttemptsHoldNoDirectMemory(listener.getLocalPort());
      listener.close();
      dropper.join(Timing.AWAIT.toMillis());
    }
  }

  private static void assertFailedAttemptsHoldNoDirectMemory(int port) {
    long before = settledDirectMemoryUsed();
    try (IoLoop loop = new IoLoop(Thread::new, TimeUnit.MILLISECONDS.toNanos(50))) {
      List<RespConnection> connections = new ArrayList<>();
      for (int i = 0; i < CONNECTIONS; i++) {
        connections.add(
            new RespConnection(
                NodeEndpoint.of("redis://127.0.0.1:" + port),
                loop,
                CONNECT_TIMEOUT,
                List.<String[]>of(new String[] {"PING"}), // so a dropped connect never gets ready
                error -> {},
                reply -> false,
                ready -> {}));
      }
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        List<CompletableFuture<Void>> failures = new ArrayList<>();
        connections.forEach(connection -> failures.add(connection.whenReady()));
        failures.forEach(DownNodeMemoryIT::awaitFailure);
      }
      // Closed, so no attempt is under way; the loop stays open, with whatever its timers keep.
      connections.forEach(RespConnection::close);

      await()
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .untilAsserted(
              () -> {
                System.gc(); // what failed attempts allocated is garbage; its cleaners free it
                assertThat(directMemoryUsed() - before)
                    .as(
                        "direct memory still held after %d failed connect attempts",
                        CONNECTIONS * ATTEMPTS)
                    .isLessThan(MARGIN);
              });
    }
  }

  /** Waits (bounded) for one attempt of a connection to fail, as every attempt here must. */
  private static void awaitFailure(CompletableFuture<Void> attempt) {
    try {
      attempt.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      throw new AssertionError("a connect to a down node succeeded");
    } catch (ExecutionException expected) {
      // the attempt failed
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("a connect attempt did not end", e);
    }
  }

  /**
   * Direct memory in use once the garbage of earlier tests is freed, so that its freeing during
   * this test does not hide what this test's attempts hold.
   */
  private static long settledDirectMemoryUsed() {
    long[] last = {-1};
    await()
        .atMost(Timing.AWAIT)
        .pollInterval(Timing.POLL)
        .until(
            () -> {
              System.gc();
              long now = directMemoryUsed();
              boolean settled = now == last[0];
              last[0] = now;
              return settled;
            });
    return last[0];
  }

  private static long directMemoryUsed() {
    return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(pool -> pool.getName().equals("direct"))
        .mapToLong(BufferPoolMXBean::getMemoryUsed)
        .sum();
  }
}
