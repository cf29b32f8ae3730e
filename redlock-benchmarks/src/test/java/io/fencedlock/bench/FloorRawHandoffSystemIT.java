package io.fencedlock.bench;

import static io.fencedlock.bench.Conditions.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** floor-raw-handoff against real redis-server processes: queueing, the one-step handoff, undo. */
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

  @ParameterizedTest(name = "checksOwner={0}")
  @ValueSource(booleans = {false, true})
  void release_withAClientQueued_handsTheKeyToItOnTheNodes_withoutFreeingIt(boolean checksOwner)
      throws Exception {
    String resource = "it:handoff:" + checksOwner;
    try (FloorRawHandoffSystem system = system(checksOwner)) {
      LockSystem.Held first = system.acquire(resource, Duration.ZERO);
      await(() -> valueOnEveryNode(resource) != null); // the stragglers' SETs too
      String firstOwner = valueOnEveryNode(resource);
      CompletableFuture<LockSystem.Held> second =
          CompletableFuture.supplyAsync(() -> system.acquire(resource, Timing.AWAIT));
      await(() -> system.queued(resource) == 1);

      first.release();
      LockSystem.Held secondHeld = second.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);

      // Every node comes to hold one other owner (the second's), and the key never went away.
      await(
          () -> {
            String now = valueOnEveryNode(resource);
            return now != null && !now.equals(firstOwner);
          });
      secondHeld.release();
      await(() -> absentEverywhere(resource));
    }
  }

  @ParameterizedTest(name = "checksOwner={0}")
  @ValueSource(booleans = {false, true})
  void acquire_notHandedTheLockWithinMaxWait_givesUpAndLeavesTheQueue(boolean checksOwner) {
    String resource = "it:gives-up:" + checksOwner;
    try (FloorRawHandoffSystem system = system(checksOwner)) {
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
  void handOver_checkingTheOwner_missesItsQuorumWhereTheReleaserNoLongerHoldsTheKey()
      throws Exception {
    String resource = "it:stolen";
    try (FloorRawHandoffSystem system = system(true)) {
      LockSystem.Held first = system.acquire(resource, Duration.ZERO);
      CompletableFuture<LockSystem.Held> second =
          CompletableFuture.supplyAsync(() -> system.acquire(resource, Timing.AWAIT));
      await(() -> system.queued(resource) == 1);
      for (int i = 0; i < 3; i++) {
        redis.node(i).command("SET", resource, "someone-else");
      }

      first.release();

      assertThat(second)
          .failsWithin(Timing.AWAIT)
          .withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(NotGrantedException.class)
          .withMessageContaining("no quorum for the handoff");
      // The failed successor gives the lock up like floor-raw's refused SET: a plain DEL
      // everywhere.
      await(() -> absentEverywhere(resource));
      assertThat(system.queued(resource)).isZero();
    }
  }

  @ParameterizedTest(name = "checksOwner={0}")
  @ValueSource(booleans = {false, true})
  void acquire_eightClientsContending_oneHolderAtATime_andEveryAcquireGranted(boolean checksOwner)
      throws InterruptedException {
    String resource = "it:contended:" + checksOwner;
    int clients = 8;
    int turnsEach = 50;
    AtomicInteger holders = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger granted = new AtomicInteger();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    try (FloorRawHandoffSystem system = system(checksOwner)) {
      List<Thread> threads = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        threads.add(
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < turnsEach; i++) {
                      LockSystem.Held held = system.acquire(resource, Timing.AWAIT);
                      if (holders.incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                      }
                      granted.incrementAndGet();
                      holders.decrementAndGet();
                      held.release();
                    }
                  } catch (RuntimeException e) {
                    failures.add(e);
                  }
                }));
      }
      threads.forEach(Thread::start);
      for (Thread thread : threads) {
        thread.join(Timing.WORKLOAD.toMillis());
      }

      assertThat(failures).isEmpty();
      assertThat(overlaps).hasValue(0);
      assertThat(granted).hasValue(clients * turnsEach);
      assertThat(system.queued(resource)).isZero();
      await(() -> absentEverywhere(resource));
    }
  }

  private static FloorRawHandoffSystem system(boolean checksOwner) {
    return new FloorRawHandoffSystem("floor-raw-handoff", redis.uris(), 3, checksOwner);
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

  private static boolean absentEverywhere(String key) {
    return redis.nodes().stream()
        .allMatch(n -> "0".equals(String.valueOf(n.command("EXISTS", key))));
  }
}
