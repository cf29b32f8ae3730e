package io.fencedlock.chaos.nemesis;

import io.fencedlock.testkit.Deployment;
import java.time.Duration;
import java.util.List;

/**
 * Models a forward step of a node's wall clock. Redis 7 expires keys against its wall clock, so a
 * step forward by s makes every existing key expire s earlier; keys set afterwards are not
 * affected. The model: for each lock key, PTTL, then PEXPIRE with PTTL − s (at least 1 ms). The two
 * commands are not atomic; if another owner's key replaced the old one in between, that key is
 * shortened instead, which a real step would also do. Nothing to heal: clocks do not step back.
 * Thread-safe.
 */
public final class ClockStepFaults implements FaultApplier {
  private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

  private final Deployment nodes;
  private final List<String> lockKeys;

  /**
   * @param lockKeys the keys whose expiry the step shortens (the resources' lock keys)
   */
  public ClockStepFaults(Deployment nodes, List<String> lockKeys) {
    this.nodes = nodes;
    this.lockKeys = List.copyOf(lockKeys);
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.ClockStep;
  }

  @Override
  public void apply(int id, Fault fault) {
    Fault.ClockStep step = (Fault.ClockStep) fault;
    for (int n : step.nodes()) {
      for (String key : lockKeys) {
        Object pttl = nodes.node(n).command(COMMAND_TIMEOUT, "PTTL", key);
        if (pttl instanceof Long ms && ms > 0) {
          long left = Math.max(1, ms - step.stepMillis());
          nodes.node(n).command(COMMAND_TIMEOUT, "PEXPIRE", key, Long.toString(left));
        }
      }
    }
  }

  @Override
  public void heal(int id, Fault fault) {
    // A clock that stepped forward stays forward; the keys it expired stay expired.
  }

  @Override
  public void healAll() {
    // Nothing to undo, see heal.
  }
}
