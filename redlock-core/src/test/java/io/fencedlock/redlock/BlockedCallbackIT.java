package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.lettuce.LettuceNodeDriver;
import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A caller's code that blocks its thread for seconds (issue 37, item 3). The work of {@link
 * Redlock#withLockAsync} never runs on the client's threads, so it costs the client's other leases
 * and calls nothing; a dependent that blocks the RESP driver's I/O thread delays the replies it
 * would read, but the replies that arrive meanwhile are still delivered, not timed out.
 */
final class BlockedCallbackIT {
  /** The caller's synchronous step: the 2.5 s, far past the node timeout and the TTL. */
  private static final Duration BLOCK = Timing.scaled(Duration.ofMillis(2500));

  /** Short enough that a client whose renewals stalled for {@link #BLOCK} loses its leases. */
  private static final Duration TTL = Timing.scaled(Duration.ofSeconds(1));

  /**
   * The TTL of an acquire made while a thread is blocked: long enough that its lease would still be
   * valid once the block is over, so only a timeout can make it fail.
   */
  private static final Duration OUTLASTS_THE_BLOCK = BLOCK.multipliedBy(4);

  private static RedisNodes nodes;
  private String resource;
  private LockOptions options;

  /** The two node drivers, each under a whole client. */
  enum Driver {
    RESP(RespNodeDriver::open),
    LETTUCE(LettuceNodeDriver::open);

    private final Function<RedlockConfig, NodeDriver> open;

    Driver(Function<RedlockConfig, NodeDriver> open) {
      this.open = open;
    }
  }

  /** A client, with what tells whether a thread is one of its own. */
  private record Client(Redlock redlock, NodeDriver driver, Environment env)
      implements AutoCloseable {

    /** With a node timeout that leaves renewal room in a TTL of about a second. */
    static Client of(Driver kind) {
      return of(kind, Timing.scaled(Duration.ofMillis(100)));
    }

    static Client of(Driver kind, Duration nodeTimeout) {
      RedlockConfig config =
          RedlockConfig.builder()
              .nodes(nodes.uris())
              .nodeTimeout(nodeTimeout)
              .connectTimeout(Timing.AWAIT)
              .retryDelay(Duration.ofMillis(20))
              .retryJitter(Duration.ofMillis(20))
              .build();
      NodeDriver driver = kind.open.apply(config);
      Environment env = Environment.system();
      return new Client(Redlock.create(config, driver, env), driver, env);
    }

    /** Whether the calling thread is one of the client's: an I/O, timer or scheduler thread. */
    boolean ownsCurrentThread() {
      return driver.isDriverThread() || env.scheduler().isSchedulerThread();
    }

    @Override
    public void close() {
      redlock.close();
    }
  }

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(3);
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @BeforeEach
  void setUp(TestInfo test) {
    resource = "blocked:" + test.getTestMethod().orElseThrow().getName();
    options = LockOptions.defaults().withTtl(TTL).withMaxWait(LockTiming.RETRY_WAIT);
  }

  @AfterEach
  void heal() {
    Cluster.heal(nodes);
  }

  /** The scenario. */
  @ParameterizedTest
  @EnumSource(Driver.class)
  void withLockAsync_workBlocksForSeconds_theClientsOtherLeasesAndAcquiresGoOn(Driver kind)
      throws InterruptedException {
    try (Client client = Client.of(kind)) {
      Lease keptAlive =
          client
              .redlock()
              .acquire(resource + ":kept", TTL, LockTiming.RETRY_WAIT)
              .keepAlive(Renewal.defaults());
      CountDownLatch blocking = new CountDownLatch(1);

      CompletableFuture<String> result =
          withRepliesHeldBack(
              () ->
                  client
                      .redlock()
                      .withLockAsync(
                          resource + ":work",
                          options,
                          lease -> {
                            blocking.countDown();
                            blockFor(BLOCK);
                            return CompletableFuture.completedFuture("done");
                          })
                      .toCompletableFuture());

      assertThat(blocking.await(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      Optional<Lease> other = client.redlock().tryAcquire(resource + ":other", OUTLASTS_THE_BLOCK);
      assertThat(other).as("a free resource is granted while the work blocks").isPresent();
      other.get().release();
      assertThat(result).succeedsWithin(BLOCK.plus(Timing.AWAIT)).isEqualTo("done");
      assertThat(keptAlive.lost().toCompletableFuture())
          .as("the lease kept alive while the work blocked is not lost")
          .isNotDone();
      assertThat(keptAlive.release()).as("released while still valid").isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(Driver.class)
  void withLockAsync_workRunsOnNoneOfTheClientsThreads(Driver kind) {
    try (Client client = Client.of(kind)) {
      CompletableFuture<Boolean> ranOnTheClientsThread =
          withRepliesHeldBack(
              () ->
                  client
                      .redlock()
                      .withLockAsync(
                          resource,
                          options,
                          lease -> CompletableFuture.completedFuture(client.ownsCurrentThread()))
                      .toCompletableFuture());

      assertThat(ranOnTheClientsThread).succeedsWithin(Timing.AWAIT).isEqualTo(false);
    }
  }

  /**
   * A dependent attached without an executor blocks the RESP driver's I/O thread while it reads a
   * reply (as the javadoc warns); replies that reach the sockets meanwhile are read before any
   * deadline is checked. Not on Lettuce: its request timer has a thread of its own, and cannot see
   * replies an event loop has not read.
   */
  @Test
  void respDriver_aDependentBlocksTheIoThread_repliesThatArriveMeanwhileAreNotTimedOut()
      throws InterruptedException {
    // A node timeout that the pause below stays well within, and the block far exceeds.
    try (Client client = Client.of(Driver.RESP, BLOCK.dividedBy(3))) {
      CountDownLatch blocking = new CountDownLatch(1);
      AtomicBoolean onTheIoThread = new AtomicBoolean();
      CompletableFuture<Boolean> firstGranted =
          withRepliesHeldBack(
              () ->
                  client
                      .redlock()
                      .tryAcquireAsync(resource + ":first", OUTLASTS_THE_BLOCK)
                      .thenApply(
                          lease -> {
                            onTheIoThread.set(client.driver().isDriverThread());
                            blocking.countDown();
                            blockFor(BLOCK);
                            lease.ifPresent(Lease::releaseAsync);
                            return lease.isPresent();
                          })
                      .toCompletableFuture());
      assertThat(blocking.await(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      Optional<Lease> other = client.redlock().tryAcquire(resource + ":other", OUTLASTS_THE_BLOCK);

      assertThat(firstGranted)
          .as("the first attempt was decided by replies (not by timeouts)")
          .succeedsWithin(Timing.AWAIT)
          .isEqualTo(true);
      assertThat(onTheIoThread).as("its dependent ran on the I/O thread").isTrue();
      assertThat(other).as("every node granted while the I/O thread was blocked").isPresent();
      other.get().release();
    }
  }

  /**
   * Makes {@code call} with two of the three nodes paused, and resumes them: what its stages wait
   * for is then decided by a reply that the client's I/O thread reads after {@code call} returned,
   * so the dependents {@code call} attached run on a thread of the client's (as they would without
   * the pause, unless a reply was quicker than the caller), not on this one.
   */
  private static <T> T withRepliesHeldBack(Supplier<T> call) {
    nodes.node(0).pause();
    nodes.node(1).pause();
    try {
      return call.get();
    } finally {
      nodes.node(0).resume();
      nodes.node(1).resume();
    }
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
