package io.fencedlock.chaos.nemesis;

import io.fencedlock.testkit.Deployment;
import io.fencedlock.testkit.Node;

/**
 * Faults on the Redis nodes, on either backend: pause and resume (SIGSTOP/SIGCONT of a process, the
 * cgroup freezer of a container), and a kill (kill -9, {@code docker kill}) followed by a restart
 * with or without persistence, at once or at heal. Thread-safe as far as {@link Node} is (its
 * lifecycle methods are serialized).
 */
public final class NodeFaults implements FaultApplier {
  private final Deployment nodes;

  public NodeFaults(Deployment nodes) {
    this.nodes = nodes;
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.PauseNodes || fault instanceof Fault.KillNodes;
  }

  @Override
  public String apply(int id, Fault fault) {
    if (fault instanceof Fault.PauseNodes p) {
      p.nodes().forEach(n -> nodes.node(n).pause());
    } else if (fault instanceof Fault.KillNodes k) {
      k.nodes().forEach(n -> nodes.node(n).kill());
      if (k.rejoin() == Fault.Rejoin.IMMEDIATE) {
        k.nodes().forEach(n -> nodes.node(n).restart(k.restartWith()));
      }
    }
    return "";
  }

  @Override
  public void heal(int id, Fault fault) {
    if (fault instanceof Fault.PauseNodes p) {
      p.nodes().forEach(n -> resume(nodes.node(n)));
    } else if (fault instanceof Fault.KillNodes k) {
      k.nodes().stream()
          .map(nodes::node)
          .filter(n -> !n.isRunning())
          .forEach(n -> n.restart(k.restartWith()));
    }
  }

  @Override
  public void healAll() {
    for (Node node : nodes.nodes()) {
      resume(node);
      if (!node.isRunning()) {
        node.restart();
      }
    }
  }

  private static void resume(Node node) {
    if (node.isRunning() && node.isPaused()) {
      node.resume();
    }
  }
}
