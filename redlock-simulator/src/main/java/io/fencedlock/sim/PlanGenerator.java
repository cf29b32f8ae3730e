package io.fencedlock.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Draws a schedule from a seed: 3 or 5 nodes, 2 to 5 clients, 1 to 3 resources, a few dozen
 * acquires spread over the horizon (with their extends, releases and cancels; a share of them
 * {@code withLockAsync}'s, whose lease is kept alive while their work runs), a network profile, and
 * faults from {@link #FAMILIES}, each family present with its probability. Most schedules stay
 * within Redlock's assumptions (long client pauses and big forward clock steps are rarer families),
 * so that mutual exclusion is tested, not only excused.
 */
public final class PlanGenerator {

  /**
   * A family of faults: present in a schedule with {@code probability}, then 1 to {@code maxCount}
   * of them.
   */
  record Family(String name, double probability, int maxCount) {}

  static final List<Family> FAMILIES =
      List.of(
          new Family("node pause", 0.35, 3),
          new Family("crash keeping memory", 0.20, 2),
          new Family("crash losing memory", 0.30, 4),
          new Family("small clock step", 0.15, 2),
          new Family("big clock step", 0.08, 2),
          new Family("short client pause", 0.25, 3),
          new Family("long client pause", 0.10, 2),
          new Family("client close", 0.15, 1),
          new Family("link cut", 0.20, 3),
          new Family("metrics sink throws", 0.15, 1));

  /** The share of acquires that are {@code withLockAsync}'s, their lease kept alive. */
  static final double KEPT_ALIVE_SHARE = 0.2;

  /** The shortest TTL of a kept-alive lease: shorter ones leave no time to renew in. */
  static final int MIN_KEPT_ALIVE_TTL_MILLIS = 30;

  private PlanGenerator() {}

  public static Plan generate(long seed, Set<Bug> bugs) {
    SplittableRandom r = new SplittableRandom(seed);
    int nodes = r.nextDouble() < 0.6 ? 3 : 5;
    int clients = 2 + r.nextInt(4);
    int resources = 1 + r.nextInt(3);
    boolean fencingDrawn = r.nextDouble() < 0.9;
    // The node-side teeth are all about fencing and membership, which unfenced clients skip.
    boolean fencing = fencingDrawn || needsFencing(bugs);
    boolean prediction = r.nextDouble() < 0.7;
    int handoffs = r.nextInt(9);
    long horizon = ms(300 + r.nextInt(701));
    NetProfile net = network(r);
    // Half the schedules give each client a window of activity within the horizon: clients that
    // come and go, and stay away for a while (a client that stopped sending to a node does not
    // learn what happened to it meanwhile).
    long[][] windows = new long[clients][];
    boolean windowed = r.nextBoolean();
    for (int c = 0; c < clients; c++) {
      long start = windowed ? r.nextLong(horizon) : 0;
      long end = windowed ? start + 1 + r.nextLong(horizon - start) : horizon;
      windows[c] = new long[] {start, end};
    }
    List<Op> ops = new ArrayList<>();
    int count = 4 + r.nextInt(30);
    // Which acquires run work under withLockAsync comes from a stream of its own, so that the
    // rest of the schedule is drawn as it was before they existed.
    SplittableRandom work = new SplittableRandom(Seeds.of(seed, "work", 0));
    for (int i = 0; i < count; i++) {
      ops.add(keptAliveSometimes(op(r, windows, resources), work));
    }
    ops.sort(Comparator.comparingLong(Op::at));
    List<Fault> faults = faults(r, horizon, nodes, clients);
    return new Plan(
        seed,
        nodes,
        clients,
        resources,
        fencing,
        prediction,
        handoffs,
        net,
        horizon,
        ops,
        faults,
        bugs);
  }

  private static boolean needsFencing(Set<Bug> bugs) {
    return bugs.contains(Bug.NAIVE_INCR_TOKEN)
        || bugs.contains(Bug.NO_MARKER_CHECK)
        || bugs.contains(Bug.STALE_FIRST_SEEN);
  }

  private static NetProfile network(SplittableRandom r) {
    double roll = r.nextDouble();
    boolean lossy = roll < 0.25 || roll >= 0.85;
    boolean slow = roll >= 0.6;
    return new NetProfile(
        Simulation.MEAN_DELAY_NANOS,
        slow ? 0.02 + 0.13 * r.nextDouble() : 0,
        slow ? ms(20) : 0,
        lossy ? 0.1 * r.nextDouble() : 0,
        lossy ? 0.1 * r.nextDouble() : 0);
  }

  private static Op op(SplittableRandom r, long[][] windows, int resources) {
    int client = r.nextInt(windows.length);
    long at = windows[client][0] + r.nextLong(windows[client][1] - windows[client][0]);
    int ttl =
        Simulation.MIN_TTL_MILLIS
            + r.nextInt((int) Simulation.MAX_LEASE_TTL.toMillis() - Simulation.MIN_TTL_MILLIS + 1);
    boolean tryOnly = r.nextDouble() < 0.25;
    int maxWait = r.nextDouble() < 0.3 ? 0 : r.nextInt(Simulation.MAX_WAIT_MILLIS + 1);
    long cancel = r.nextDouble() < 0.15 ? r.nextLong(ms(20)) : -1;
    double holdRoll = r.nextDouble();
    long hold =
        holdRoll < 0.6 ? r.nextLong(ms(ttl) * 3 / 2) : holdRoll < 0.75 ? -1 : r.nextLong(ms(5));
    List<long[]> extendsAfter = new ArrayList<>();
    double extendRoll = r.nextDouble();
    int extendCount = extendRoll < 0.6 ? 0 : extendRoll < 0.9 ? 1 : 2;
    for (int e = 0; e < extendCount; e++) {
      extendsAfter.add(
          new long[] {
            r.nextLong(ms(ttl)),
            Simulation.MIN_TTL_MILLIS
                + r.nextInt(
                    (int) Simulation.MAX_LEASE_TTL.toMillis() - Simulation.MIN_TTL_MILLIS + 1)
          });
    }
    return new Op(
        at, client, r.nextInt(resources), tryOnly, ttl, maxWait, cancel, hold, extendsAfter, false);
  }

  /**
   * {@code op}, or, for a share of the acquires, the same acquire as {@code withLockAsync}'s: its
   * work runs up to three TTLs, so that the lease is renewed, and takes no extends or cancels.
   */
  private static Op keptAliveSometimes(Op op, SplittableRandom work) {
    if (op.tryOnly() || work.nextDouble() >= KEPT_ALIVE_SHARE) {
      return op;
    }
    int ttl = Math.max(op.ttlMillis(), MIN_KEPT_ALIVE_TTL_MILLIS);
    return new Op(
        op.at(),
        op.client(),
        op.resource(),
        false,
        ttl,
        op.maxWaitMillis(),
        -1,
        work.nextLong(3 * ms(ttl)),
        List.of(),
        true);
  }

  private static List<Fault> faults(SplittableRandom r, long horizon, int nodes, int clients) {
    List<Fault> faults = new ArrayList<>();
    int victim = r.nextInt(nodes); // memory losses favour one node, so that it loses it again
    for (Family family : FAMILIES) {
      if (r.nextDouble() >= family.probability()) {
        continue;
      }
      int n = 1 + r.nextInt(family.maxCount());
      for (int i = 0; i < n; i++) {
        long at = r.nextLong(horizon);
        int node = r.nextInt(nodes);
        int client = r.nextInt(clients);
        faults.add(
            switch (family.name()) {
              case "node pause" ->
                  new Fault.NodePause(
                      node,
                      at,
                      r.nextDouble() < 0.3
                          ? ms(50) + r.nextLong(ms(250))
                          : ms(1) + r.nextLong(ms(19)));
              case "crash keeping memory" ->
                  new Fault.NodeCrash(node, at, ms(1) + r.nextLong(ms(300)), true);
              case "crash losing memory" ->
                  new Fault.NodeCrash(
                      r.nextDouble() < 0.7 ? victim : node,
                      at,
                      r.nextDouble() < 0.5
                          ? 100_000 + r.nextLong(ms(10))
                          : ms(100) + r.nextLong(ms(300)),
                      false);
              case "small clock step" ->
                  new Fault.ClockStep(
                      node,
                      at,
                      r.nextDouble() < 0.5
                          ? 100_000 + r.nextLong(800_000)
                          : -(100_000 + r.nextLong(ms(5))));
              case "big clock step" ->
                  new Fault.ClockStep(
                      node, at, (r.nextBoolean() ? 1 : -1) * (ms(5) + r.nextLong(ms(95))));
              case "short client pause" ->
                  new Fault.ClientPause(client, at, 100_000 + r.nextLong(ms(5)));
              case "long client pause" ->
                  new Fault.ClientPause(client, at, ms(20) + r.nextLong(ms(180)));
              case "client close" -> new Fault.ClientClose(client, at);
              case "link cut" -> new Fault.LinkCut(client, node, at, ms(1) + r.nextLong(ms(100)));
              case "metrics sink throws" -> new Fault.ThrowingMetrics(client, at);
              default -> throw new IllegalStateException("unknown fault family " + family.name());
            });
      }
    }
    faults.sort(Comparator.comparingLong(Fault::at));
    return faults;
  }

  static long ms(long millis) {
    return millis * 1_000_000L;
  }
}
