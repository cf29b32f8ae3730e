package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.redlock.spi.ReleaseFeed;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
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
                lingering, RespNodeDriver.open(lingering), HeldTasks.sweeps().environment());
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
   * A named client whose acquire ends before it acts on the naming passes the release on too, as
   * one that no longer waits does: the lead took it off the queue and told nobody else, who would
   * sleep until their retry delay beside a free lock. Here b is named while the attempt it was in
   * is still in flight (its lock steps wait at a gate), and then its client closes.
   */
  @Test
  void aNamedClientThatClosesBeforeActingOnIt_passesTheReleaseOnToEveryone() throws Exception {
    String resource = "named:closing";
    RedlockConfig bConfig = config(new LockSteps());
    Gate gate = new Gate();
    List<String> bHeard = new CopyOnWriteArrayList<>();
    Redlock b =
        Redlock.create(
            bConfig, hearing(gate.on(RespNodeDriver.open(bConfig)), bHeard), Environment.system());
    try (Redlock a = client();
        Redlock c = client()) {
      Lease held = a.acquire(resource, TTL, Duration.ZERO);
      queue(b, resource, 1);
      String bId = queue(resource).get(0);
      CompletableFuture<Lease> cWaits = queue(c, resource, 2);
      // b starts an attempt (woken by a naming that only it hears, which leaves it queued)
      gate.close();
      lead(resource)
          .command("PUBLISH", ReleaseChannel.named(resource, bId), "nobody\n" + bId + "\n0");
      await().atMost(Timing.AWAIT).until(() -> gate.waiting() > 0);

      held.release(); // the lead names b, whose attempt is in flight, and tells nobody else
      await()
          .atMost(Timing.AWAIT)
          .until(() -> bHeard.stream().anyMatch(m -> m.startsWith(held.ownerId() + "\n" + bId)));
      assertThat(queued(resource)).as("b named and taken off the queue").isEqualTo(1);
      assertThat(cWaits).isNotDone();

      b.closeAsync();
      Lease lease = cWaits.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken());
      lease.release();
    } finally {
      gate.open();
      b.close();
    }
  }

  /**
   * The releasing client writes to the nodes one after another; the lead's release, whose naming
   * the next holder waits for, goes first (here the lead is the last node, which a release in node
   * order would tell last). The client met no rival on the lock, so it sends the other deletes at
   * once. The driver is the real one, with its release calls recorded.
   */
  @Test
  void theLeadIsToldOfTheReleaseFirst() throws Exception {
    String resource = Cluster.resourceLedBy(nodes, 4, "named:lead-first");
    LockSteps steps = new LockSteps();
    RedlockConfig config = config(steps);
    List<String> releases = new CopyOnWriteArrayList<>();
    try (Redlock a = Redlock.create(config, recording(config, releases), Environment.system())) {
      Lease held = acquireWithEveryGrantIn(a, resource, steps);
      held.release();
      assertThat(releases)
          .containsExactly(
              "releaseNamingNext@4", "release@0", "release@1", "release@2", "release@3");
    }
  }

  /**
   * A client that met a rival on the lock asks the lead alone first. The lead names the next
   * client, whose step deletes the released key on the other nodes itself: so the release holds its
   * other deletes back (they would reach the nodes with that step, and delay it on a host whose
   * cores the nodes share) and completes with the lead's reply. The held-back deletes still go, a
   * node timeout later (here: when the test runs them), and find nothing left.
   */
  @Test
  void aContendedRelease_thatNamesAClient_leavesTheOtherDeletesToItsStep() throws Exception {
    String resource = Cluster.resourceLedBy(nodes, 4, "named:held-back");
    LockSteps steps = new LockSteps();
    RedlockConfig config = config(steps);
    List<String> releases = new CopyOnWriteArrayList<>();
    HeldTasks holds = HeldTasks.heldBackDeletes();
    try (Redlock a = Redlock.create(config, recording(config, releases), holds.environment());
        Redlock b = client()) {
      Lease held = acquireAfterARival(a, resource, steps);
      CompletableFuture<Lease> waiting = queue(b, resource, 1);
      releases.clear();

      held.release();
      assertThat(releases)
          .as("the lead alone, which named b")
          .containsExactly("releaseNamingNext@4");
      Lease next = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(next.fencingToken()).isEqualTo(held.fencingToken() + 1);
      // b's step deleted a's key on the 4 other nodes (b returned at 3 grants: await the rest)
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.holdingValue(nodes, resource, next.ownerId()) == 5);
      assertThat(releases).as("still held back").containsExactly("releaseNamingNext@4");

      long scripts = Cluster.evalshaCalls(nodes);
      assertThat(holds.runHeld()).isEqualTo(1);
      assertThat(releases).contains("release@0", "release@1", "release@2", "release@3");
      await() // answered, not only sent: then a's deletes have met b's key
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.evalshaCalls(nodes) - scripts == 4);
      assertThat(Cluster.holdingValue(nodes, resource, next.ownerId()))
          .as("a's late deletes found b's key, not a's")
          .isEqualTo(5);
      next.release();
    }
  }

  /**
   * The named client may never step (crashed, paused, cut off; here it is a bare subscription): a
   * release's held-back deletes then free the lock when their hold is over, and announce it, since
   * the other clients were not told and would sleep until their retry delay (here longer than the
   * test) beside a free lock.
   */
  @Test
  void aNamedClientThatNeverSteps_theHeldBackDeletesFreeTheLock_andTellTheOthers()
      throws Exception {
    String resource = Cluster.resourceLedBy(nodes, 4, "named:silent-tell");
    LockSteps steps = new LockSteps();
    RedlockConfig config = config(steps);
    HeldTasks holds = HeldTasks.heldBackDeletes();
    try (Redlock a = Redlock.create(config, RespNodeDriver.open(config), holds.environment());
        Redlock c = client()) {
      Lease held = acquireAfterARival(a, resource, steps);
      CompletableFuture<Lease> waiting = queue(c, resource, 1);
      lead(resource).command("DEL", NodeKeys.waiters(resource)); // c listens, but is not queued
      try (RespNodeDriver silent = silentlyQueued(config, resource)) {
        held.release();
        assertThat(queued(resource)).as("the silent client named").isZero();
        assertThat(Cluster.holdingValue(nodes, resource, held.ownerId()))
            .as("held back on the 4 other nodes")
            .isEqualTo(4);
        assertThat(waiting).as("c was not told").isNotDone();

        assertThat(holds.runHeld()).isEqualTo(1);
        Lease lease = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken());
        lease.release();
      }
    }
  }

  /**
   * A naming can lose the race with the named client's retry timer, or arrive while one of its
   * attempts is starting, and the attempt that then runs was not started by it. Every fenced
   * attempt of a waiting client therefore deletes the key of the last owner it heard announced.
   * Here b, whose subscriptions linger from an earlier wait, hears of a's release, which left a's
   * key held back on 4 nodes, and only then waits for the lock: its first attempt is refused there,
   * its next must not be (its retry delay is longer than the test).
   */
  @Test
  void anAttemptNotStartedByTheAnnouncement_stillDeletesTheAnnouncedOwnersKey() throws Exception {
    String resource = Cluster.resourceLedBy(nodes, 4, "named:late-attempt");
    LockSteps steps = new LockSteps();
    RedlockConfig config = config(steps);
    RedlockConfig lingering = config(new LockSteps());
    List<String> bHeard = new CopyOnWriteArrayList<>();
    try (Redlock a =
            Redlock.create(
                config, RespNodeDriver.open(config), HeldTasks.heldBackDeletes().environment());
        Redlock b =
            Redlock.create(
                lingering,
                hearing(RespNodeDriver.open(lingering), bHeard),
                HeldTasks.sweeps().environment())) {
      Lease first = a.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> bWaits = queue(b, resource, 1);
      first.release();
      bWaits.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).release();
      Cluster.awaitNoKey(nodes, resource); // b got the lock once, and still listens

      Lease held = acquireAfterARival(a, resource, steps);
      try (RespNodeDriver silent = silentlyQueued(config, resource)) {
        held.release(); // names the silent client, and holds a's other deletes back
        assertThat(Cluster.holdingValue(nodes, resource, held.ownerId())).isEqualTo(4);
        // what the named client would pass on: b hears it while it does not wait
        lead(resource).command("PUBLISH", ReleaseChannel.of(resource), held.ownerId() + "\n");
        await().atMost(Timing.AWAIT).until(() -> bHeard.contains(held.ownerId() + "\n"));

        Lease lease =
            b.acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
                .toCompletableFuture()
                .get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        await()
            .atMost(Timing.AWAIT)
            .until(() -> Cluster.holdingValue(nodes, resource, lease.ownerId()) == 5);
        lease.release();
      }
    }
  }

  /** A client that closes sends its held-back deletes at once, and waits for them. */
  @Test
  void closingWithDeletesHeldBack_sendsThemAtOnce() throws Exception {
    String resource = Cluster.resourceLedBy(nodes, 4, "named:closing");
    LockSteps steps = new LockSteps();
    RedlockConfig config = config(steps);
    HeldTasks holds = HeldTasks.heldBackDeletes();
    Redlock a = Redlock.create(config, RespNodeDriver.open(config), holds.environment());
    try (RespNodeDriver silent = silentlyQueued(config, resource)) {
      Lease held = acquireAfterARival(a, resource, steps);
      held.release();
      assertThat(Cluster.holdingValue(nodes, resource, held.ownerId())).isEqualTo(4);

      a.close();
      assertThat(Cluster.holding(nodes, resource)).as("deleted before close returned").isZero();
    } finally {
      a.close(); // idempotent
    }
  }

  /**
   * A contended release whose lead names nobody (nobody is queued) sends the other deletes as soon
   * as the lead has answered: a lock nobody waits for is free when its release returns.
   */
  @Test
  void aContendedRelease_thatNamesNobody_sendsTheOtherDeletesOnTheLeadsReply() throws Exception {
    String resource = Cluster.resourceLedBy(nodes, 4, "named:nobody-queued");
    LockSteps steps = new LockSteps();
    RedlockConfig config = config(steps);
    List<String> releases = new CopyOnWriteArrayList<>();
    HeldTasks holds = HeldTasks.heldBackDeletes();
    try (Redlock a = Redlock.create(config, recording(config, releases), holds.environment())) {
      Lease held = acquireAfterARival(a, resource, steps);
      releases.clear();

      held.release();
      assertThat(releases.get(0)).isEqualTo("releaseNamingNext@4");
      // sent on the lead's reply; the release returned at 3 deletes
      await().atMost(Timing.AWAIT).until(() -> releases.size() == 5);
      assertThat(holds.runHeld()).as("no hold left to run").isZero();
      Cluster.awaitNoKey(nodes, resource);
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
      assertThat(deleted).as("deleted, and named b").isEqualTo(2L);
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
   * Acquires {@code resource} and waits until every node's grant is in, so that the lease knows it
   * took the lead node.
   */
  private static Lease acquireWithEveryGrantIn(Redlock client, String resource, LockSteps steps) {
    long before = steps.replies.get();
    Lease lease = client.acquire(resource, TTL, Duration.ZERO);
    await().atMost(Timing.AWAIT).until(() -> steps.replies.get() - before == 5);
    return lease;
  }

  /**
   * {@link #acquireWithEveryGrantIn}, and then makes {@code client} meet a rival on {@code
   * resource}: its own lease, which refuses a second acquire. Its release is then a contended one.
   */
  private static Lease acquireAfterARival(Redlock client, String resource, LockSteps steps) {
    Lease lease = acquireWithEveryGrantIn(client, resource, steps);
    assertThat(client.tryAcquire(resource, TTL)).as("refused by the lease held").isEmpty();
    return lease;
  }

  /**
   * A driver subscribed to its own channel of {@code resource} as client "silent", queued first on
   * the lead node: the lead names it, and nothing ever acts on it.
   */
  private static RespNodeDriver silentlyQueued(RedlockConfig config, String resource) {
    RespNodeDriver silent = RespNodeDriver.open(config);
    silent.connect(Timing.AWAIT);
    silent
        .releases()
        .subscribe(ReleaseChannel.named(resource, "silent"))
        .orTimeout(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)
        .join();
    String own = ReleaseChannel.named(resource, "silent");
    await() // confirmed by some node, not necessarily the lead, which must count it to name it
        .atMost(Timing.AWAIT)
        .until(() -> ((List<?>) lead(resource).command("PUBSUB", "NUMSUB", own)).get(1).equals(1L));
    lead(resource).command("ZADD", NodeKeys.waiters(resource), "1e15", "silent");
    return silent;
  }

  /**
   * {@code driver}, with every release message its client has heard (after the client handled it)
   * added to {@code heard}.
   */
  private static NodeDriver hearing(NodeDriver driver, List<String> heard) {
    ReleaseFeed feed = driver.releases();
    ReleaseFeed recorded =
        new ReleaseFeed() {
          @Override
          public void listen(BiConsumer<String, String> onRelease) {
            feed.listen(
                (channel, message) -> {
                  onRelease.accept(channel, message);
                  heard.add(message);
                });
          }

          @Override
          public CompletableFuture<Void> subscribe(String channel) {
            return feed.subscribe(channel);
          }

          @Override
          public void unsubscribe(String channel) {
            feed.unsubscribe(channel);
          }
        };
    return delegating(
        driver, (method, args) -> method.getName().equals("releases") ? recorded : null);
  }

  /** Holds a driver's lock steps while closed: they wait, unsent, until it opens. */
  private static final class Gate {
    private volatile CompletableFuture<Void> opened = CompletableFuture.completedFuture(null);
    private final AtomicLong waiting = new AtomicLong();

    void close() {
      opened = new CompletableFuture<>();
    }

    void open() {
      opened.complete(null);
    }

    /** How many lock steps waited at the gate. */
    long waiting() {
      return waiting.get();
    }

    /** {@code real}, whose lock steps pass this gate. */
    NodeDriver on(NodeDriver real) {
      return delegating(
          real,
          (method, args) -> {
            CompletableFuture<Void> gate = opened;
            if (!method.getName().equals("lock") || gate.isDone()) {
              return null;
            }
            waiting.incrementAndGet();
            return gate.thenCompose(open -> real.lock((Integer) args[0], (LockRequest) args[1]));
          });
    }
  }

  /** The real driver of {@code config}, with its release calls recorded as "method@node". */
  private static NodeDriver recording(RedlockConfig config, List<String> releases) {
    return delegating(
        RespNodeDriver.open(config),
        (method, args) -> {
          if (List.of("release", "releaseNamingNext").contains(method.getName())) {
            releases.add(method.getName() + "@" + args[0]);
          }
          return null;
        });
  }

  /**
   * {@code real}, whose calls first go to {@code before}: its result, if not null, is returned
   * instead of calling {@code real}.
   */
  private static NodeDriver delegating(
      NodeDriver real, BiFunction<Method, Object[], @Nullable Object> before) {
    return (NodeDriver)
        Proxy.newProxyInstance(
            NodeDriver.class.getClassLoader(),
            new Class<?>[] {NodeDriver.class},
            (proxy, method, args) -> {
              Object instead = before.apply(method, args);
              if (instead != null) {
                return instead;
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
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
