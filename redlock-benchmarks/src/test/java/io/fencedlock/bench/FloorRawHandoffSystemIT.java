package io.fencedlock.bench;

import static io.fencedlock.bench.Conditions.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * floor-raw-handoff against real redis-server processes: queueing, the one-step and two-step
 * handoffs, undo.
 */
final class FloorRawHandoffSystemIT {
  private static RedisNodes redis;

  @BeforeAll
  static void startNodes() {
    redis = RedisNodes.start(5);
  }

  @AfterAll
  static void stopNodes() {
    redis.close();
  }

  @ParameterizedTest
  @EnumSource(names = {"TRANSFER", "HAND_OVER"})
  void release_withAClientQueued_handsTheKeyToItOnTheNodes_withoutFreeingIt(
      FloorRawHandoffSystem.Step step) throws Exception {
    String resource = "it:handoff:" + step;
    try (FloorRawHandoffSystem system = system(step)) {
      LockSystem.Held first = system.acquire(resource, Duration.ZERO);
      await(() -> valueOnEveryNode(resource) != null); // the stragglers' SETs too
      String firstOwner = valueOnEveryNode(resource);
      CompletableFuture<LockSystem.Held> second =
          CompletableFuture.supplyAsync(() -> system.acquire(resource, Timing.AWAIT));
      await(() -> system.queued(resource) == 1);
      long deletesBefore = deletes();

      first.release();
      LockSystem.Held secondHeld = second.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);

      // Every node comes to hold one other owner (the second's), and no DEL ran in between.
      await(
          () -> {
            String now = valueOnEveryNode(resource);
            return now != null && !now.equals(firstOwner);
          });
      assertThat(deletes()).as("DELs on the nodes during the handoff").isEqualTo(deletesBefore);
      secondHeld.release();
      await(() -> absentEverywhere(resource));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"RELEASE_THEN_TAKE", "RELEASE_THEN_TAKE_SCRIPTS"})
  void release_inTwoSteps_releasesOnTheLead_andTheTakeMovesTheKeyOnEveryNode(
      FloorRawHandoffSystem.Step step) throws Exception {
    String resource = "it:two-steps:" + step;
    boolean scripted = step == FloorRawHandoffSystem.Step.RELEASE_THEN_TAKE_SCRIPTS;
    try (FloorRawHandoffSystem system = system(step)) {
      LockSystem.Held held = system.acquire(resource, Duration.ZERO);
      long lastToken = 0;
      for (int i = 0; i < 10; i++) {
        await(() -> valueOnEveryNode(resource) != null); // the stragglers' steps too
        String before = valueOnEveryNode(resource);
        CompletableFuture<LockSystem.Held> next =
            CompletableFuture.supplyAsync(() -> system.acquire(resource, Timing.AWAIT));
        await(() -> system.queued(resource) == 1);
        long deletesBefore = deletes();

        held.release();
        held = next.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);

        // Every node comes to hold the next owner: none refused its take.
        await(
            () -> {
              String now = valueOnEveryNode(resource);
              return now != null && !now.equals(before);
            });
        // The release deletes on the lead alone; the scripted take deletes the released owner's
        // key on the four others itself (the plain one overwrites it).
        assertThat(deletes() - deletesBefore)
            .as("DELs of handoff %d", i)
            .isEqualTo(scripted ? 5 : 1);
        if (scripted) {
          String fence = valueOnEveryNode(resource + RespCommands.FENCE_SUFFIX);
          assertThat(fence).as("the fence counter, the same on every node").isNotNull();
          assertThat(Long.parseLong(fence))
              .as("the token of handoff %d", i)
              .isGreaterThan(lastToken);
          lastToken = Long.parseLong(fence);
        }
      }
      held.release();
      await(() -> absentEverywhere(resource));
    }
  }

  @ParameterizedTest
  @EnumSource
  void acquire_notHandedTheLockWithinMaxWait_givesUpAndLeavesTheQueue(
      FloorRawHandoffSystem.Step step) {
    String resource = "it:gives-up:" + step;
    try (FloorRawHandoffSystem system = system(step)) {
      LockSystem.Held held = system.acquire(resource, Duration.ZERO);
      await(() -> valueOnEveryNode(resource) != null);
      String owner = valueOnEveryNode(resource);

      assertThatThrownBy(() -> system.acquire(resource, Duration.ofMillis(50)))
          .isInstanceOf(NotGrantedException.class)
          .hasMessageContaining(resource + " is held");
      assertThat(system.queued(resource)).isZero();
      assertThat(valueOnEveryNode(resource)).as("the holder's key, untouched").isEqualTo(owner);

      held.release(); // nobody queued: deleted everywhere, not handed to the client that gave up
      await(() -> absentEverywhere(resource));
      system.acquire(resource, Duration.ZERO).release();
    }
  }

  @Test
  void acquire_interruptedWhileQueued_givesUpAndLeavesTheQueue() throws Exception {
    String resource = "it:interrupted";
    try (FloorRawHandoffSystem system = system(FloorRawHandoffSystem.Step.TRANSFER)) {
      LockSystem.Held held = system.acquire(resource, Duration.ZERO);
      CompletableFuture<Throwable> outcome = new CompletableFuture<>();
      Thread waiter =
          new Thread(
              () -> {
                try {
                  system.acquire(resource, Timing.AWAIT).release();
                  outcome.complete(null);
                } catch (RuntimeException e) {
                  outcome.complete(e);
                }
              });
      waiter.start();
      await(() -> system.queued(resource) == 1);

      waiter.interrupt();

      assertThat(outcome.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(NotGrantedException.class)
          .hasMessageContaining(resource + " is held");
      assertThat(system.queued(resource)).isZero();
      held.release();
      await(() -> absentEverywhere(resource));
    }
  }

  @Test
  void release_twice_throwsAndHandsNothingOn() throws Exception {
    String resource = "it:twice";
    try (FloorRawHandoffSystem system = system(FloorRawHandoffSystem.Step.TRANSFER)) {
      LockSystem.Held held = system.acquire(resource, Duration.ZERO);
      held.release();
      LockSystem.Held next = system.acquire(resource, Duration.ZERO);

      assertThatThrownBy(held::release)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("released twice");
      assertThatThrownBy(() -> system.acquire(resource, Duration.ofMillis(20)))
          .as("the second holder still holds it")
          .isInstanceOf(NotGrantedException.class);
      next.release();
      await(() -> absentEverywhere(resource));
    }
  }

  @ParameterizedTest(name = "{0}, {1} nodes taken")
  @CsvSource({"HAND_OVER, 3", "RELEASE_THEN_TAKE_SCRIPTS, 3", "RELEASE_THEN_TAKE_SCRIPTS, 5"})
  void handoff_checkingTheOwner_missesItsQuorumWhereTheReleaserNoLongerHoldsTheKey_andPassesItOn(
      FloorRawHandoffSystem.Step step, int taken) throws Exception {
    // With 5 taken, not even the lead deletes the releaser's key: the take goes out all the same.
    String resource = "it:stolen:" + step + ":" + taken;
    try (FloorRawHandoffSystem system = system(step)) {
      LockSystem.Held first = system.acquire(resource, Duration.ZERO);
      CompletableFuture<LockSystem.Held> second =
          CompletableFuture.supplyAsync(() -> system.acquire(resource, Timing.AWAIT));
      await(() -> system.queued(resource) == 1);
      CompletableFuture<LockSystem.Held> third =
          CompletableFuture.supplyAsync(() -> system.acquire(resource, Timing.AWAIT));
      await(() -> system.queued(resource) == 2);
      for (int i = 0; i < taken; i++) {
        redis.node(i).command("SET", resource, "someone-else");
      }

      first.release();

      assertThat(second)
          .failsWithin(Timing.AWAIT)
          .withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(NotGrantedException.class)
          .withMessageContaining("no quorum for the handoff");
      // The failed successor gives the lock up with a plain DEL everywhere, like floor-raw's
      // refused SET, and passes it on to the next client with a plain SET.
      LockSystem.Held thirdHeld = third.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      await(() -> valueOnEveryNode(resource) != null);
      assertThat(valueOnEveryNode(resource)).isNotEqualTo("someone-else");
      assertThat(system.queued(resource)).isZero();
      thirdHeld.release();
      await(() -> absentEverywhere(resource));
    }
  }

  @ParameterizedTest
  @EnumSource
  void acquire_eightClientsContending_oneHolderAtATime_andEveryAcquireGranted(
      FloorRawHandoffSystem.Step step) throws InterruptedException {
    String resource = "it:contended:" + step;
    int clients = 8;
    int turnsEach = 50;
    AtomicInteger holders = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger granted = new AtomicInteger();
    try (FloorRawHandoffSystem system = system(step)) {
      List<Throwable> failures =
          ConcurrentClients.run(
              clients,
              c -> {
                for (int i = 0; i < turnsEach; i++) {
                  LockSystem.Held held = system.acquire(resource, Timing.AWAIT);
                  if (holders.incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                  }
                  granted.incrementAndGet();
                  LockSupport.parkNanos(100_000); // a little work, for overlaps to show
                  holders.decrementAndGet();
                  held.release();
                }
              });

      assertThat(failures).isEmpty();
      assertThat(overlaps).hasValue(0);
      assertThat(granted).hasValue(clients * turnsEach);
      assertThat(system.queued(resource)).isZero();
      await(() -> absentEverywhere(resource));
    }
  }

  private static FloorRawHandoffSystem system(FloorRawHandoffSystem.Step step) {
    return new FloorRawHandoffSystem("floor-raw-handoff", redis.uris(), 3, step);
  }

  /** The key's value if every node holds the same one, else null. */
  private static String valueOnEveryNode(String key) {
    Object first = redis.node(0).command("GET", key);
    for (RedisNode node : redis.nodes()) {
      if (first == null || !first.equals(node.command("GET", key))) {
        return null;
      }
    }
    return String.valueOf(first);
  }

  /** How many DEL commands the nodes have run, together. */
  private static long deletes() {
    long calls = 0;
    for (RedisNode node : redis.nodes()) {
      calls += CommandStats.calls(node, "del");
    }
    return calls;
  }

  private static boolean absentEverywhere(String key) {
    return redis.nodes().stream()
        .allMatch(n -> "0".equals(String.valueOf(n.command("EXISTS", key))));
  }
}
