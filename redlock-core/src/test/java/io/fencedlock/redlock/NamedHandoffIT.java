package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Handoffs between separate clients (each its own {@code Redlock}, as separate processes are): a
 * fenced lease that took the lock's lead node is announced by that node alone, naming the first
 * client of the lock's waiter queue there that still listens. Retry delays are far longer than the
 * await bound, so a waiter granted within the bound was woken by an announcement; the tests count
 * the scripts the nodes ran to tell who tried.
 */
final class NamedHandoffIT {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration NEVER_IN_THIS_TEST = Timing.scaled(Duration.ofMinutes(5));
  private static RedisNodes nodes;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5);
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @BeforeEach
  void heal() {
    Cluster.heal(nodes);
  }

  @Test
  void release_namesTheFirstQueuedClient_andNoOtherClientTries() throws Exception {
    String resource = "named:first";
    LockSteps bSteps = new LockSteps();
    LockSteps cSteps = new LockSteps();
    try (Redlock a = client(new LockSteps());
        Redlock b = client(bSteps);
        Redlock c = client(cSteps)) {
      Lease held = a.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> first = queue(b, resource, 1);
      CompletableFuture<Lease> second = queue(c, resource, 2);
      long cBefore = cSteps.replies.get();
      long scripts = Cluster.evalshaCalls(nodes);

      held.release();
      Lease next = first.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(next.fencingToken())
          .as("predicted from the naming message")
          .isEqualTo(held.fencingToken() + 1);
      // b's step deleted a's key itself wherever a's delete had not arrived yet: granted everywhere
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.holdingValue(nodes, resource, next.ownerId()) == 5);
      assertThat(queued(resource)).as("the named client left the queue").isEqualTo(1);
      // a's delete may reach a node after b's step there: wait for all 10, then none more
      assertThat(scriptsWithin(scripts))
          .as("a's release on 5 nodes, then b's one step on 5 nodes: no phase 2")
          .isEqualTo(10);
      assertThat(cSteps.replies.get()).as("the other client was not told").isEqualTo(cBefore);
      assertThat(second).isNotDone();

      // and on to the next in line
      long bBefore = bSteps.replies.get();
      long before = Cluster.evalshaCalls(nodes);
      next.release();
      Lease last = second.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(last.fencingToken()).isEqualTo(next.fencingToken() + 1);
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.holdingValue(nodes, resource, last.ownerId()) == 5);
      assertThat(scriptsWithin(before))
          .as("c predicted b's token + 1 from the naming message, though it last saw a's")
          .isEqualTo(10);
      assertThat(queued(resource)).isZero();
      assertThat(bSteps.replies.get()).isEqualTo(bBefore);
      last.release();
    }
  }

  @Test
  void aQueuedClientThatStoppedListening_isPassedOver() throws Exception {
    String resource = "named:gone";
    LockSteps dSteps = new LockSteps();
    try (Redlock a = client();
        Redlock b = client();
        Redlock c = client();
        Redlock d = client(dSteps)) {
      Lease held = a.acquire(resource, TTL, Duration.ZERO);
      queue(b, resource, 1);
      CompletableFuture<Lease> waiting = queue(c, resource, 2);
      // d listens on the lock's channel but is not queued: it hears only releases told to all
      List<String> bAndC = queue(resource);
      CompletableFuture<Lease> bystander = queue(d, resource, 3);
      List<String> all = queue(resource);
      all.removeAll(bAndC);
      lead(resource).command("ZREM", NodeKeys.waiters(resource), all.get(0));
      b.close(); // b's subscriptions end with its connections, and it stays queued
      await().atMost(Timing.AWAIT).until(() -> Cluster.releaseSubscribers(nodes, resource) == 10);
      await().atMost(Timing.AWAIT).until(() -> listeningOnTheLead(resource) == 2);
      assertThat(queued(resource)).isEqualTo(2);
      long dBefore = dSteps.replies.get();

      held.release();
      Lease lease = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(lease.fencingToken()).isEqualTo(held.fencingToken() + 1);
      assertThat(queued(resource)).as("both taken off: b passed over, c named").isZero();
      assertThat(dSteps.replies.get()).as("c was named, not everyone told").isEqualTo(dBefore);
      assertThat(bystander).isNotDone();
      lease.release();
    }
  }

  /**
   * A client that won the lock keeps listening for a while (its subscriptions linger, see
   * ReleaseWaiters); if it is still queued on the lead (granted without the lead, say; here the
   * test queues it again by hand) the lead names it, and it tells every waiting client instead, or
   * they would sleep until their retry delay. Its sweeps are held, so it still listens.
   */
  @Test
  void aNamedClientThatNoLongerWaits_passesTheReleaseOnToEveryone() throws Exception {
    String resource = "named:pass-on";
    RedlockConfig lingering = config(new LockSteps());
    try (Redlock a = client();
        Redlock b =
            Redlock.create(
                lingering, RespNodeDriver.open(lingering), new HeldSweeps().environment());
        Redlock c = client()) {
      Lease held = a.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> bWaits = queue(b, resource, 1);
      String bId = queue(resource).get(0);
      held.release();
      bWaits.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).release();
      Cluster.awaitNoKey(nodes, resource);

      Lease again = a.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiting =
          c.acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2)).toCompletableFuture();
      // c queued, and listening beside b, whose subscriptions linger
      await()
          .atMost(Timing.AWAIT)
          .until(() -> queued(resource) == 1 && listeningOnTheLead(resource) == 2);
      String cScore =
          (String)
              lead(resource).command("ZSCORE", NodeKeys.waiters(resource), queue(resource).get(0));
      lead(resource)
          .command(
              "ZADD",
              NodeKeys.waiters(resource),
              Long.toString((long) Double.parseDouble(cScore) - 1),
              bId);
      assertThat(queue(resource).get(0)).isEqualTo(bId);

      again.release(); // the lead names b, first in its queue and listening
      Lease lease = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(lease.fencingToken()).isGreaterThan(again.fencingToken());
      assertThat(queued(resource)).as("b named and c granted on the lead").isZero();
      lease.release();
    }
  }

  /**
   * The releasing client writes to the nodes one after another; the lead's release, whose naming
   * the next holder waits for, goes first (here the lead is the last node, which a release in node
   * order would tell last). The driver is the real one, with its release calls recorded.
   */
  @Test
  void theLeadIsToldOfTheReleaseFirst() throws Exception {
    String resource = Cluster.resourceLedBy(nodes, 4, "named:lead-first");
    LockSteps steps = new LockSteps();
    RedlockConfig config = config(steps);
    List<String> releases = new CopyOnWriteArrayList<>();
    RespNodeDriver real = RespNodeDriver.open(config);
    NodeDriver recorded =
        (NodeDriver)
            Proxy.newProxyInstance(
                NodeDriver.class.getClassLoader(),
                new Class<?>[] {NodeDriver.class},
                (proxy, method, args) -> {
                  if (List.of("release", "releaseNamingNext").contains(method.getName())) {
                    releases.add(method.getName() + "@" + args[0]);
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    try (Redlock a = Redlock.create(config, recorded, Environment.system())) {
      Lease held = a.acquire(resource, TTL, Duration.ZERO);
      // every node's grant in, so that the lease knows it took the lead (node 4)
      await().atMost(Timing.AWAIT).until(() -> steps.replies.get() == 5);
      held.release();
      assertThat(releases)
          .containsExactly(
              "releaseNamingNext@4", "release@0", "release@1", "release@2", "release@3");
    }
  }

  @Test
  void theNamedStep_deletesTheReleasedKeyWhereTheReleaseHasNotArrived() throws Exception {
    String resource = "named:early";
    try (Redlock a = client();
        Redlock b = client()) {
      Lease held = a.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiting = queue(b, resource, 1);

      // a's release as the lead runs it, on the lead alone: a's key stays on the other 4 nodes
      Object deleted =
          lead(resource)
              .command(
                  "EVAL",
                  Cluster.luaSource("release.lua"),
                  "2",
                  resource,
                  NodeKeys.waiters(resource),
                  held.ownerId(),
                  "fencedlock:released:" + resource,
                  "fencedlock:next:" + resource + ":",
                  Long.toString(held.fencingToken()));
      assertThat(deleted).isEqualTo(1L);
      Lease next = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(Cluster.holdingValue(nodes, resource, next.ownerId()))
          .as("b's one step deleted a's key on the 4 nodes a's release never reached")
          .isEqualTo(5);
      assertThat(next.fencingToken()).isEqualTo(held.fencingToken() + 1);
      held.release(); // finds nothing of a's left
      assertThat(Cluster.holdingValue(nodes, resource, next.ownerId())).isEqualTo(5);
      next.release();
    }
  }

  @Test
  void nobodyQueuedListens_theLeadTellsEveryWaitingClientAtOnce() throws Exception {
    String resource = "named:nobody";
    try (Redlock a = client();
        Redlock c = client()) {
      Lease held = a.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiting = queue(c, resource, 1);
      // c listens but is no longer queued; only a client that has gone away is
      RedisNode lead = lead(resource);
      lead.command("DEL", NodeKeys.waiters(resource));
      lead.command("ZADD", NodeKeys.waiters(resource), "1e15", "gone-client");

      held.release();
      // one message on the lock's channel, from the lead alone: acted on at its first copy
      Lease lease = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken());
      assertThat(queued(resource)).isZero();
      lease.release();
    }
  }

  /**
   * Starts an acquire of {@code resource} by {@code client} and returns once the lead's queue holds
   * {@code queuedThen} clients, each listening on its own channel there: its first attempt failed,
   * it subscribed, and its second attempt, refused on the lead, queued it. (A client's attempts
   * carry its ticket once some node confirmed its subscriptions; a release in the moment before the
   * lead confirmed too would pass the client over, and it would wait for its retry delay.)
   */
  private static CompletableFuture<Lease> queue(Redlock client, String resource, int queuedThen) {
    CompletableFuture<Lease> waiter =
        client
            .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
            .toCompletableFuture();
    await().atMost(Timing.AWAIT).until(() -> queued(resource) == queuedThen);
    await().atMost(Timing.AWAIT).until(() -> listeningOnTheLead(resource) == queuedThen);
    assertThat(waiter).isNotDone();
    return waiter;
  }

  /**
   * The scripts the nodes ran since {@code before}, once at least 10 have (a release's delete may
   * reach a node after the next holder's step there, as it does not hold the next holder back).
   */
  private static long scriptsWithin(long before) {
    await().atMost(Timing.AWAIT).until(() -> Cluster.evalshaCalls(nodes) - before >= 10);
    return Cluster.evalshaCalls(nodes) - before;
  }

  private static long listeningOnTheLead(String resource) {
    return Cluster.listeningOnTheLead(nodes, resource);
  }

  /** The clients queued on the lead node, first first. */
  @SuppressWarnings("unchecked")
  private static List<String> queue(String resource) {
    return new ArrayList<>(
        (List<String>) lead(resource).command("ZRANGE", NodeKeys.waiters(resource), "0", "-1"));
  }

  private static long queued(String resource) {
    return (Long) lead(resource).command("ZCARD", NodeKeys.waiters(resource));
  }

  private static RedisNode lead(String resource) {
    return Cluster.lead(nodes, resource);
  }

  private static Redlock client() {
    return client(new LockSteps());
  }

  private static Redlock client(LockSteps steps) {
    return Redlock.create(config(steps));
  }

  private static RedlockConfig config(LockSteps steps) {
    return Cluster.wokenOnly(nodes, NEVER_IN_THIS_TEST).metrics(steps).maxLocalHandoffs(0).build();
  }

  /** Counts a client's lock-step replies: each attempt it makes adds one per node it asked. */
  private static final class LockSteps implements RedlockMetrics {
    final AtomicLong replies = new AtomicLong();

    @Override
    public boolean enabled() {
      return true;
    }

    @Override
    public void nodeReply(NodeStatus status) {
      replies.incrementAndGet();
    }
  }
}
