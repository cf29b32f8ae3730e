package io.fencedlock.chaos.nemesis;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;

/**
 * Process faults on the Redis nodes: SIGSTOP/SIGCONT, and kill -9 followed by a restart with or
 * without persistence, at once or at heal. Thread-safe as far as {@link RedisNode} is (its
 * methods are synchronized).
 */
public final class NodeFaults implements FaultApplier {
  private final RedisNodes nodes;

  public NodeFaults(RedisNodes nodes) {
    this.nodes = nodes;
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.PauseNodes || fault instanceof Fault.KillNodes;
  }

  @Override
  public void apply(int id, Fault fault) {
    if (fault instanceof Fault.PauseNodes p) {
      p.nodes().forEach(n -> nodes.node(n).pause());
    } else if (fault instanceof Fault.KillNodes k) {
      k.nodes().forEach(n -> nodes.node(n).kill());
      if (k.rejoin() == Fault.Rejoin.IMMEDIATE) {
        k.nodes().forEach(n -> nodes.node(n).restart(k.restartWith()));
      }
    }
  }

  @Override
  public void heal(int id, Fault fault) {
    if (fault instanceof Fault.PauseNodes p) {
      p.nodes().forEach(n -> resume(nodes.node(n)));
    } else if (fault instanceof Fault.KillNodes k) {
      k.nodes().stream().map(nodes::node).filter(n -> !n.isRunning()).forEach(n -> n.restart(k.restartWith()));
    }
  }

  @Override
  public void healAll() {
    for (RedisNode node : nodes) {
      resume(node);
      if (!node.isRunning()) {
        node.restart();
      }
    }
  }

  private static void resume(RedisNode node) {
    if (node.isRunning() && node.isPaused()) {
      node.resume();
    }
  }
}
