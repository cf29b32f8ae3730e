package io.fencedlock.sim;

import io.fencedlock.redlock.Lease;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The leases the workload holds, and the two lease invariants, checked after every step:
 *
 * <ul>
 *   <li><b>Exclusion</b>: on each resource at most one lease reports valid. A client that is paused
 *       still believes what it believed when it stopped (a GC pause stops the program between its
 *       validity check and its write), so its leases count as valid until it resumes if they were
 *       valid when it paused. Validity only ever ends between steps and begins at a step, so two
 *       overlapping leases are both valid at some step.
 *   <li><b>Protection</b>: a lease valid by its ticker must be held by a quorum of nodes until its
 *       deadline: a node protects it if it holds the owner's key with an expiry, in simulated real
 *       time (its clock offset taken out), no earlier than the deadline; or if it cannot be part of
 *       any rival quorum until then, because it lost its memory and has not been re-admitted (down
 *       without its data, or up without its marker while acquires check it; re-admission waits
 *       maxLeaseTtl after the loss was first seen, longer than any lease the node forgot). Checked
 *       against expiries, not presence, so a key that will expire early is caught when it is set or
 *       shortened, not only if some step falls in the gap.
 *   <li><b>Told work</b>: work under {@code withLockAsync} runs only while its lease is valid: the
 *       library tells it of a loss (cancels its stage) before the validity runs out, so work whose
 *       lease is no longer valid and that was not told is running unprotected. A paused client's
 *       work is not running; if the pause outlasted the validity, the assumption is broken. Checked
 *       after every step and when the work ends.
 * </ul>
 */
final class LeaseBook {

  /** A lease the workload holds. */
  static final class Held {
    final int client;
    final int resource;
    final Lease lease;
    final String owner;
    boolean releaseCalled;
    boolean validWhenPaused;

    /** The work under withLockAsync, until it ends or is told; null for a plain acquire's lease. */
    @Nullable CompletableFuture<Void> work;

    Held(int client, int resource, Lease lease) {
      this.client = client;
      this.resource = resource;
      this.lease = lease;
      this.owner = lease.ownerId();
    }
  }

  private final EventLoop loop;
  private final SimNode[] nodes;
  private final String[] lockKeys;
  private final int quorum;
  private final Violations violations;
  private final Stats stats;

  /** The leases that may still report valid, in grant order. */
  private final List<Held> live = new ArrayList<>();

  private final Map<String, Held> byOwner = new HashMap<>();
  private final Held[] validOn;
  private boolean pausedPastValidity;

  LeaseBook(
      EventLoop loop,
      SimNode[] nodes,
      String[] lockKeys,
      int quorum,
      Violations violations,
      Stats stats) {
    this.loop = loop;
    this.nodes = nodes;
    this.lockKeys = lockKeys;
    this.quorum = quorum;
    this.violations = violations;
    this.stats = stats;
    this.validOn = new Held[lockKeys.length];
  }

  Held add(int client, int resource, Lease lease) {
    Held h = new Held(client, resource, lease);
    live.add(h);
    byOwner.put(h.owner, h);
    return h;
  }

  void releaseCalled(Held h) {
    h.releaseCalled = true;
  }

  /** Whether {@code owner} is a lease the workload holds and has not released. */
  boolean heldAndNotReleased(String owner) {
    Held h = byOwner.get(owner);
    return h != null && !h.releaseCalled;
  }

  /** The leases of {@code client} the workload has not released. */
  List<Held> unreleasedOf(int client) {
    List<Held> result = new ArrayList<>();
    for (Held h : byOwner.values()) {
      if (h.client == client && !h.releaseCalled) {
        result.add(h);
      }
    }
    result.sort(
        (a, b) ->
            a.owner.compareTo(b.owner)); // a stable order: the map's is not meant to be relied on
    return result;
  }

  boolean pausedPastValidity() {
    return pausedPastValidity;
  }

  void clientPaused(int client) {
    for (Held h : live) {
      if (h.client == client) {
        h.validWhenPaused = !h.releaseCalled && h.lease.isValid();
      }
    }
  }

  /**
   * A lease that was valid when its client paused and has run out since: the pause broke the
   * assumption.
   */
  void clientResumed(int client) {
    for (Held h : live) {
      if (h.client == client && h.validWhenPaused && !h.lease.isValid()) {
        pausedPastValidity = true;
      }
      if (h.client == client) {
        h.validWhenPaused = false;
      }
    }
  }

  /** After every step. */
  void check() {
    if (live.isEmpty()) {
      return;
    }
    java.util.Arrays.fill(validOn, null);
    long now = loop.now();
    int kept = 0;
    for (int i = 0; i < live.size(); i++) {
      Held h = live.get(i);
      boolean paused = loop.isPaused(h.client);
      long remaining = h.releaseCalled ? 0 : h.lease.remainingValidity().toNanos();
      boolean believed = paused ? h.validWhenPaused : remaining > 0;
      if (h.work != null && !h.work.isDone() && !paused && remaining == 0) {
        workUnprotected(h);
      }
      if (!believed && !paused && remaining == 0) {
        continue; // over for good: a lease never becomes valid again
      }
      live.set(kept++, h);
      if (believed) {
        exclusion(h);
      }
      if (remaining > 0) {
        protection(h, now + remaining);
      }
    }
    live.subList(kept, live.size()).clear();
  }

  /** The work of {@code h} ends now, not told of a loss: its lease must still be valid. */
  void workEnds(Held h) {
    stats.checks++;
    if (!h.lease.isValid()) {
      workUnprotected(h);
    }
  }

  private void workUnprotected(Held h) {
    violations.add(
        Violation.Kind.WORK_UNPROTECTED,
        String.format(
            "c%d's work under withLockAsync on r%d runs on, never told, but its lease %s is no"
                + " longer valid",
            h.client, h.resource, Trace.id(h.owner)));
  }

  private void exclusion(Held h) {
    stats.checks++;
    Held other = validOn[h.resource];
    if (other == null) {
      validOn[h.resource] = h;
    } else {
      violations.add(
          Violation.Kind.LEASE_OVERLAP,
          String.format(
              "r%d: c%d's lease %s (token %s) and c%d's lease %s " + "(token %s) both report valid",
              h.resource,
              other.client,
              Trace.id(other.owner),
              token(other),
              h.client,
              Trace.id(h.owner),
              token(h)));
    }
  }

  private void protection(Held h, long deadline) {
    stats.checks++;
    int protecting = 0;
    for (SimNode node : nodes) {
      if (protects(node, h.owner, lockKeys[h.resource], deadline)) {
        protecting++;
      }
    }
    if (protecting < quorum) {
      violations.add(
          Violation.Kind.LEASE_UNPROTECTED,
          String.format(
              "c%d's lease %s on r%d reports validity until "
                  + "%.3f ms, but only %d nodes (quorum %d) hold its key that long",
              h.client, Trace.id(h.owner), h.resource, deadline / 1e6, protecting, quorum));
    }
  }

  private static boolean protects(SimNode node, String owner, String lockKey, long deadline) {
    if (node.isAmnesic()) {
      return true;
    }
    NodeStore.Entry e = node.store().peek(lockKey);
    if (e == null || !owner.equals(e.value())) {
      return false;
    }
    if (e.expiresAtMillis() == NodeStore.PERSISTENT) {
      return true;
    }
    // The key exists while the node's clock reads at most expiresAt: until (expiresAt + 1) ms on
    // the node's clock, that is, until that minus the clock's offset in simulated real time.
    long endsAt = (e.expiresAtMillis() + 1) * 1_000_000L - node.clockOffsetNanos();
    return endsAt >= deadline;
  }

  private static String token(Held h) {
    return h.lease.isFenced() ? Long.toString(h.lease.fencingToken()) : "none";
  }
}
