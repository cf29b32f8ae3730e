package io.fencedlock.sim;

import io.fencedlock.redlock.spi.LockRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The rules about lock keys, from what the nodes did and what the clients sent: nothing re-creates
 * an owner's key on a node (owner ids are per attempt, and an expired or deleted key must stay
 * gone); nothing deletes a held lease's key before its holder releases it; and at the end, every
 * key a client created is held by the workload, or was released there (a delete was sent: one the
 * network then lost is the network's doing, and the key goes at its TTL), or belongs to a lease the
 * workload gave up on purpose (kept past the end, or its client closed).
 */
final class KeyAudit {
  private final List<Set<String>> created = new ArrayList<>();
  private final List<Set<String>> deleteSent = new ArrayList<>();
  private final Set<String> exempt = new HashSet<>();
  private final Violations violations;
  private final Stats stats;
  private final Trace trace;
  private final EventLoop loop;
  private Predicate<String> heldAndNotReleased = owner -> false;

  KeyAudit(int nodes, Violations violations, Stats stats, Trace trace, EventLoop loop) {
    for (int i = 0; i < nodes; i++) {
      created.add(new HashSet<>());
      deleteSent.add(new HashSet<>());
    }
    this.violations = violations;
    this.stats = stats;
    this.trace = trace;
    this.loop = loop;
  }

  void watchHeldLeases(Predicate<String> heldAndNotReleased) {
    this.heldAndNotReleased = heldAndNotReleased;
  }

  KeyObserver observer(int node) {
    return new KeyObserver() {
      @Override
      public void created(String lockKey, String owner) {
        stats.checks++;
        if (!created.get(node).add(owner)) {
          violations.add(
              Violation.Kind.KEY_RECREATED,
              "n" + node + " created " + lockKey + " for " + Trace.id(owner) + " a second time");
        }
      }

      @Override
      public void deleted(String lockKey, String owner) {
        stats.checks++;
        if (heldAndNotReleased.test(owner)) {
          violations.add(
              Violation.Kind.HELD_KEY_DELETED,
              "n"
                  + node
                  + " deleted "
                  + lockKey
                  + " of the held lease "
                  + Trace.id(owner)
                  + " before its holder released it");
        }
      }
    };
  }

  void lockSent(int node, LockRequest request) {
    if (request.predecessorOwner() != null) {
      deleteSent
          .get(node)
          .add(request.predecessorOwner()); // a handoff deletes the predecessor's key
    }
  }

  void releaseSent(int node, String owner) {
    deleteSent.get(node).add(owner);
  }

  /** The workload gave this lease up on purpose: its key may stay until its TTL. */
  void exempt(String owner) {
    exempt.add(owner);
  }

  /**
   * A re-admission: it must come no sooner than maxLeaseTtl after the node came back empty (a
   * client waits that long, and drift, from its first look at that empty incarnation).
   */
  void readmitted(SimNode node, long maxLeaseTtlNanos) {
    stats.checks++;
    long emptyFor = loop.now() - node.emptySince();
    trace.add(loop.now(), "re-admitted", -1, node.index(), emptyFor, null);
    if (node.emptySince() >= 0 && emptyFor < maxLeaseTtlNanos) {
      violations.add(
          Violation.Kind.READMITTED_TOO_SOON,
          String.format(
              "n%d was re-admitted %.3f ms after it came back "
                  + "without its memory, sooner than maxLeaseTtl (%.0f ms)",
              node.index(), emptyFor / 1e6, maxLeaseTtlNanos / 1e6));
    }
  }

  /** At the end: no key was left behind by a lease nobody held and nobody released. */
  void checkOrphans() {
    for (int node = 0; node < created.size(); node++) {
      for (String owner : created.get(node)) {
        stats.checks++;
        if (!deleteSent.get(node).contains(owner) && !exempt.contains(owner)) {
          violations.add(
              Violation.Kind.ORPHAN_KEY,
              "n"
                  + node
                  + " holds (or held until its TTL) a key of "
                  + Trace.id(owner)
                  + " that no lease held and no release was ever sent for: a leaked lease");
          return;
        }
      }
    }
  }
}
