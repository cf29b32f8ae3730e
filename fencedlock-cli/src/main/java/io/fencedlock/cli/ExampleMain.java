package io.fencedlock.cli;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.testkit.Persistence;
import io.fencedlock.testkit.RedisNodes;
import java.io.PrintStream;
import java.time.Duration;

/**
 * {@code ./fencedlock example}: the library's basic use against five local Redis nodes it starts
 * itself. Acquire, use the fencing token, extend, release; then what a client sees when a majority
 * of nodes is down.
 */
public final class ExampleMain {
  private static final String RESOURCE = "orders:42";
  private static final Duration TTL = Duration.ofSeconds(10);

  private ExampleMain() {}

  public static void main(String[] args) {
    if (args.length > 0) {
      System.err.println("usage: ./fencedlock example   (takes no options)");
      System.exit(2);
    }
    PrintStream out = System.out;
    // appendfsync always, as production nodes need it for the fence counters to survive a crash.
    try (RedisNodes nodes = RedisNodes.start(5, Persistence.AOF_ALWAYS)) {
      out.println("Started 5 Redis nodes: " + nodes.uris());
      RedlockConfig config = RedlockConfig.builder().nodes(nodes.uris()).build();
      try (Redlock redlock = Redlock.create(config)) {
        useTwoLeases(redlock, out);
        showMajorityDown(redlock, nodes, out);
      }
    }
    out.println("Stopped every node. Done.");
  }

  private static void useTwoLeases(Redlock redlock, PrintStream out) {
    long firstToken;
    try (Lease lease = redlock.acquire(RESOURCE, TTL, Duration.ofSeconds(2))) {
      firstToken = lease.fencingToken();
      out.printf(
          "Acquired '%s': fencing token %d, owner %s, valid for %d ms%n",
          RESOURCE, firstToken, lease.ownerId(), lease.remainingValidity().toMillis());
      out.printf(
          "  -> write to your storage with token %d; it must reject any lower token later%n",
          firstToken);
      out.printf("  extend by %s: %s%n", TTL, lease.extend(TTL));
      out.printf("  released while still valid: %s%n", lease.release());
    }
    try (Lease next = redlock.acquire(RESOURCE, TTL, Duration.ofSeconds(2))) {
      out.printf(
          "Acquired again: token %d (> %d: a later lease always has a larger token)%n",
          next.fencingToken(), firstToken);
    }
  }

  private static void showMajorityDown(Redlock redlock, RedisNodes nodes, PrintStream out) {
    for (int i = 0; i < 3; i++) {
      nodes.node(i).kill();
    }
    out.println("Killed 3 of 5 nodes; a quorum of 3 is now impossible:");
    try {
      redlock.acquire(RESOURCE, TTL, Duration.ZERO).close();
      out.println("  unexpected: acquired without a quorum");
    } catch (LockAcquisitionException e) {
      e.outcomes().forEach(o -> out.println("  " + o));
    }
  }
}
