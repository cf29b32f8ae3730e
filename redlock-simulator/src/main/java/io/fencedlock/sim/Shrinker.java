package io.fencedlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Makes a failing plan smaller while the same invariant still fails: fewer clients, resources and
 * nodes, a calm network, then delta debugging over the faults and over the operations (drop halves,
 * then quarters, down to single items). The seeds stay, so the network's randomness is drawn from
 * the same stream; a reduction is kept only if its run still fails the same way.
 */
final class Shrinker {
  private final Violation.Kind target;
  private final int budget;
  private int runs;
  private Outcome best;

  private Shrinker(Outcome failing, Violation.Kind target, int budget) {
    this.best = failing;
    this.target = target;
    this.budget = budget;
  }

  /**
   * The smallest outcome found within {@code budget} runs that fails like the first failure of
   * {@code failing}.
   */
  static Outcome shrink(Outcome failing, int budget) {
    return shrink(failing, failing.failures().get(0).kind(), budget);
  }

  /** The smallest outcome found within {@code budget} runs that still fails {@code target}. */
  static Outcome shrink(Outcome failing, Violation.Kind target, int budget) {
    Shrinker s = new Shrinker(failing, target, budget);
    s.loop();
    return s.best;
  }

  private void loop() {
    boolean progress = true;
    while (progress && runs < budget) {
      progress = false;
      progress |= shrinkShape();
      progress |= shrinkList(Plan::faults, (p, l) -> p.with(p.ops(), l));
      progress |= shrinkList(Plan::ops, (p, l) -> p.with(l, p.faults()));
    }
  }

  private boolean shrinkShape() {
    boolean progress = false;
    Plan p = best.plan();
    if (p.net().requestLoss() > 0 || p.net().replyLoss() > 0 || p.net().slowRate() > 0) {
      progress |=
          tryPlan(
              new Plan(
                  p.seed(),
                  p.nodes(),
                  p.clients(),
                  p.resources(),
                  p.fencing(),
                  p.tokenPrediction(),
                  p.maxLocalHandoffs(),
                  NetProfile.healed(p.net().meanDelayNanos()),
                  p.horizonNanos(),
                  p.ops(),
                  p.faults(),
                  p.bugs()));
    }
    for (int c = best.plan().clients() - 1; c >= 0 && best.plan().clients() > 1; c--) {
      progress |= tryPlan(withoutClient(best.plan(), c));
    }
    for (int r = best.plan().resources() - 1; r >= 0 && best.plan().resources() > 1; r--) {
      progress |= tryPlan(withoutResource(best.plan(), r));
    }
    if (best.plan().nodes() == 5) {
      progress |= tryPlan(threeNodes(best.plan()));
    }
    return progress;
  }

  private <T> boolean shrinkList(
      Function<Plan, List<T>> get, java.util.function.BiFunction<Plan, List<T>, Plan> set) {
    boolean progress = false;
    int chunk = Math.max(1, get.apply(best.plan()).size() / 2);
    while (chunk >= 1 && runs < budget) {
      boolean removed = false;
      for (int start = 0; start < get.apply(best.plan()).size() && runs < budget; ) {
        List<T> items = get.apply(best.plan());
        List<T> fewer = new ArrayList<>(items.subList(0, start));
        fewer.addAll(items.subList(Math.min(items.size(), start + chunk), items.size()));
        if (fewer.size() < items.size() && tryPlan(set.apply(best.plan(), fewer))) {
          removed = true;
          progress = true;
        } else {
          start += chunk;
        }
      }
      if (!removed) {
        chunk /= 2;
      }
    }
    return progress;
  }

  private boolean tryPlan(Plan candidate) {
    if (runs >= budget) {
      return false;
    }
    runs++;
    Outcome o = Simulation.run(candidate, false);
    if (o.failures().stream().anyMatch(v -> v.kind() == target)) {
      best = o;
      return true;
    }
    return false;
  }

  private static Plan withoutClient(Plan p, int gone) {
    List<Op> ops = new ArrayList<>();
    for (Op op : p.ops()) {
      if (op.client() != gone) {
        ops.add(op.client() > gone ? op.withClient(op.client() - 1) : op);
      }
    }
    List<Fault> faults = new ArrayList<>();
    for (Fault f : p.faults()) {
      int client = clientOf(f);
      if (client == gone) {
        continue;
      }
      faults.add(client > gone ? renumber(f, client - 1) : f);
    }
    return p.withShape(p.clients() - 1, p.resources()).with(ops, faults);
  }

  private static Plan withoutResource(Plan p, int gone) {
    List<Op> ops = new ArrayList<>();
    for (Op op : p.ops()) {
      if (op.resource() != gone) {
        ops.add(op.resource() > gone ? op.withResource(op.resource() - 1) : op);
      }
    }
    return p.withShape(p.clients(), p.resources() - 1).with(ops, p.faults());
  }

  private static Plan threeNodes(Plan p) {
    List<Fault> faults = p.faults().stream().filter(f -> nodeOf(f) < 3).toList();
    return new Plan(
        p.seed(),
        3,
        p.clients(),
        p.resources(),
        p.fencing(),
        p.tokenPrediction(),
        p.maxLocalHandoffs(),
        p.net(),
        p.horizonNanos(),
        p.ops(),
        faults,
        p.bugs());
  }

  private static int clientOf(Fault f) {
    if (f instanceof Fault.ClientPause p) {
      return p.client();
    }
    if (f instanceof Fault.ClientClose c) {
      return c.client();
    }
    if (f instanceof Fault.ThrowingMetrics t) {
      return t.client();
    }
    if (f instanceof Fault.LinkCut l) {
      return l.client();
    }
    return -1;
  }

  private static int nodeOf(Fault f) {
    if (f instanceof Fault.NodePause p) {
      return p.node();
    }
    if (f instanceof Fault.NodeCrash c) {
      return c.node();
    }
    if (f instanceof Fault.ClockStep s) {
      return s.node();
    }
    if (f instanceof Fault.LinkCut l) {
      return l.node();
    }
    return -1;
  }

  private static Fault renumber(Fault f, int client) {
    if (f instanceof Fault.ClientPause p) {
      return new Fault.ClientPause(client, p.at(), p.durationNanos());
    }
    if (f instanceof Fault.ClientClose c) {
      return new Fault.ClientClose(client, c.at());
    }
    if (f instanceof Fault.ThrowingMetrics t) {
      return new Fault.ThrowingMetrics(client, t.at());
    }
    if (f instanceof Fault.LinkCut l) {
      return new Fault.LinkCut(client, l.node(), l.at(), l.durationNanos());
    }
    return f;
  }
}
