package io.fencedlock.bench;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.driver.DriverOptions;
import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.NamingRelease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Probe} diagnostic, {@code driver-fenced}: this project's node driver ({@link
 * RespNodeDriver}) and its scripts (acquire.lua with a predicted token, release.lua unannounced),
 * under the least quorum logic there is ({@link QuorumWait}: wake the caller at the quorum-th). Set
 * beside {@code floor-raw-fenced} (the smallest scripts, RESP by hand) and {@code redlock-fenced}
 * (the whole library), it splits the library's distance to that floor into what the driver and the
 * scripts cost and what the algorithm around them (attempts, rounds, leases) costs. Not a lock: a
 * refused acquire is undone (unannounced) and reported, nothing is retried, and the prediction is
 * per resource in this process only.
 *
 * <p>Where it differs from the library's path beyond the algorithm, each difference is counted in
 * the algorithm's share: the marker check is off (acquire.lua still reads the marker, and skips one
 * comparison); owner ids come from {@link ThreadLocalRandom}, not the library's pool of {@code
 * SecureRandom} bytes; and {@code driver-fenced-named} always names from the key's lead node, where
 * the library names only once that node's acquire reply is in, and otherwise has every node
 * announce (docs/analysis.md, section 10, measured that fallback on 27 % of scenario 2's
 * operations). Thread-safe.
 */
final class DriverFloorSystem implements LockSystem {
  static final String NAME = "driver-fenced";

  /**
   * The same, releasing as the library's fenced leases do when the lead node took the key: named
   * and announced from the lead node ({@link #leadOf}), deleted unannounced elsewhere.
   */
  static final String NAMED = "driver-fenced-named";

  private final String name;
  private final RespNodeDriver driver;
  private final int needed;
  private final boolean naming;

  /** Keys of its own, one prefix per variant: other systems' tokens on them would be higher. */
  private final String keyPrefix;

  /**
   * Per resource, the last token predicted or seen: the next acquire predicts one above it. Each
   * resource is one client's in the scenarios it takes part in.
   */
  private final Map<String, AtomicLong> tokens = new ConcurrentHashMap<>();

  DriverFloorSystem(String name, List<String> uris, int needed) {
    this.name = name;
    this.naming = name.equals(NAMED);
    this.keyPrefix = naming ? "n:" : "d:";
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
    String lockKey = lockKey(resource);
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
    List<CompletableFuture<LockReply>> steps = new ArrayList<>(driver.size());
    for (int node = 0; node < driver.size(); node++) {
      steps.add(driver.lock(node, request));
    }
    if (!QuorumWait.await(steps, needed, reply -> wroteToken(reply, last))) {
      release(lockKey, owner, token, false);
      throw new NotGrantedException(name + ": no quorum wrote token " + token);
    }
    return () -> release(lockKey, owner, token, naming);
  }

  /** The lock key of {@code resource}. */
  String lockKey(String resource) {
    return keyPrefix + resource;
  }

  /** The node that names the next holder of {@code lockKey}: spread over the nodes by key. */
  static int leadOf(String lockKey, int nodes) {
    return Math.floorMod(lockKey.hashCode(), nodes);
  }

  /**
   * Whether a lock step wrote the predicted token. A grant that did not found a counter above the
   * prediction (a fresh key starts at the node's epoch once redlock-fenced has initialized it): the
   * next acquire predicts above it. Here rather than in a stage of its own, so that each node's
   * reply costs one dependent, as in the library's round.
   */
  private static boolean wroteToken(LockReply reply, AtomicLong last) {
    if (reply instanceof LockReply.Granted granted) {
      if (granted.wroteToken()) {
        return true;
      }
      last.accumulateAndGet(granted.counter(), Math::max);
    }
    return false;
  }

  /** Compare-and-deletes everywhere; with {@code named}, the lead node names and announces. */
  private void release(String lockKey, String owner, long token, boolean named) {
    int lead = named ? leadOf(lockKey, driver.size()) : -1;
    List<CompletableFuture<Boolean>> deletes = new ArrayList<>(driver.size());
    if (named) {
      // The library's channel names (ReleaseChannel), so that the script's work is the same.
      deletes.add(
          driver
              .releaseNamingNext(
                  lead,
                  lockKey,
                  owner,
                  "fencedlock:released:" + lockKey,
                  "fencedlock:next:" + lockKey + ":",
                  token)
              .thenApply(outcome -> outcome != NamingRelease.KEPT));
    }
    for (int node = 0; node < driver.size(); node++) {
      if (node != lead) {
        deletes.add(driver.release(node, lockKey, owner, null));
      }
    }
    QuorumWait.await(deletes, needed, Boolean.TRUE::equals);
  }

  private static String ownerId() {
    byte[] id = new byte[16];
    ThreadLocalRandom.current().nextBytes(id);
    return HexFormat.of().formatHex(id);
  }

  @Override
  public void close() {
    driver.close();
  }
}
