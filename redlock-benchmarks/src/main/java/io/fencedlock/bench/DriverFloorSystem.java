package io.fencedlock.bench;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.driver.DriverOptions;
import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.NamingRelease;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Probe} diagnostic, {@code driver-fenced}: this project's node driver ({@link
 * RespNodeDriver}) and its scripts (acquire.lua with a predicted token, release.lua unannounced),
 * under the least quorum logic there is (count the replies, wake the caller at the quorum-th). Set
 * beside {@code floor-raw-fenced} (the smallest scripts, RESP by hand) and {@code redlock-fenced}
 * (the whole library), it splits the library's distance to that floor into what the driver and the
 * scripts cost and what the algorithm around them (attempts, rounds, leases) costs. Not a lock: a
 * refused acquire is undone and reported, nothing is retried, the marker check is off, and the
 * prediction is per resource in this process only. Thread-safe.
 */
final class DriverFloorSystem implements LockSystem {
  static final String NAME = "driver-fenced";

  /** The same, releasing as the library's fenced leases do: announced and named by node 0. */
  static final String NAMED = "driver-fenced-named";

  private static final long TIMEOUT_MILLIS = 2_000;

  private final String name;
  private final RespNodeDriver driver;
  private final int needed;
  private final boolean naming;

  /**
   * Per resource, the last token predicted or seen: the next acquire predicts one above it. Each
   * resource is one client's in the scenarios it takes part in.
   */
  private final Map<String, AtomicLong> tokens = new ConcurrentHashMap<>();

  DriverFloorSystem(String name, List<String> uris, int needed) {
    this.name = name;
    this.naming = name.equals(NAMED);
    this.driver =
        RespNodeDriver.open(
            RedlockConfig.builder().nodes(uris).build(),
            DriverOptions.defaults().withoutMarkerCheckUnsafe());
    this.needed = needed;
    try {
      driver.connect(Duration.ofSeconds(10));
    } catch (RuntimeException e) {
      driver.close(); // its I/O thread would outlive a system nobody can close
      throw e;
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean canWait() {
    return false;
  }

  @Override
  public boolean takesPart(String scenarioId) {
    return scenarioId.startsWith("1") || scenarioId.equals("2");
  }

  @Override
  public Held acquire(String resource, Duration maxWait) {
    // Keys of its own: the other systems' tokens on the same resources would be above its own.
    String lockKey = "d:" + resource;
    String owner = ownerId();
    AtomicLong last = tokens.computeIfAbsent(resource, r -> new AtomicLong());
    long token = last.incrementAndGet();
    LockRequest request =
        new LockRequest(
            lockKey,
            "{" + lockKey + "}:fence",
            owner,
            BenchTiming.LEASE_TTL.toMillis(),
            token,
            null);
    Quorum taken = new Quorum(driver.size(), needed);
    for (int node = 0; node < driver.size(); node++) {
      driver
          .lock(node, request)
          .whenComplete(
              (reply, failure) -> {
                if (reply instanceof LockReply.Granted g && !g.wroteToken()) {
                  // A counter above the prediction (a fresh key starts at the node's epoch once
                  // redlock-fenced has initialized it): the next acquire predicts above it.
                  last.accumulateAndGet(g.counter(), Math::max);
                }
                taken.vote(reply instanceof LockReply.Granted g && g.wroteToken());
              });
    }
    if (!taken.reached()) {
      release(lockKey, owner, token);
      throw new NotGrantedException(name + ": no quorum wrote token " + token);
    }
    return () -> release(lockKey, owner, token);
  }

  private void release(String lockKey, String owner, long token) {
    Quorum deleted = new Quorum(driver.size(), needed);
    if (naming) {
      // The library's channel names (ReleaseChannel), so that the script's work is the same.
      driver
          .releaseNamingNext(
              0,
              lockKey,
              owner,
              "fencedlock:released:" + lockKey,
              "fencedlock:next:" + lockKey + ":",
              token)
          .whenComplete(
              (outcome, failure) -> deleted.vote(outcome != null && outcome != NamingRelease.KEPT));
    }
    for (int node = naming ? 1 : 0; node < driver.size(); node++) {
      driver
          .release(node, lockKey, owner, null)
          .whenComplete((ok, failure) -> deleted.vote(Boolean.TRUE.equals(ok)));
    }
    deleted.reached();
  }

  private static String ownerId() {
    byte[] id = new byte[16];
    ThreadLocalRandom.current().nextBytes(id);
    return HexFormat.of().formatHex(id);
  }

  /** Counts votes and decides at the quorum-th yes, or once a quorum has become impossible. */
  private static final class Quorum {
    private final int needed;
    private final int impossibleAt;
    private final AtomicInteger yes = new AtomicInteger();
    private final AtomicInteger no = new AtomicInteger();
    private final CompletableFuture<Boolean> decision = new CompletableFuture<>();

    Quorum(int voters, int needed) {
      this.needed = needed;
      this.impossibleAt = voters - needed + 1;
    }

    void vote(boolean granted) {
      if (granted ? yes.incrementAndGet() == needed : no.incrementAndGet() == impossibleAt) {
        decision.complete(granted);
      }
    }

    boolean reached() {
      try {
        return decision.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } catch (ExecutionException | TimeoutException e) {
        return false;
      }
    }
  }

  @Override
  public void close() {
    driver.close();
  }
}
