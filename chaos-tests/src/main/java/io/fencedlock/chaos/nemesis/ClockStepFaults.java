package io.fencedlock.chaos.nemesis;

import io.fencedlock.testkit.Deployment;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The fallback clock model, used only where libfaketime is not available (see {@link ClockFaults}
 * for real clocks); results record which one ran. Redis expires keys against its wall clock, so a
 * step by s makes every existing key expire s earlier (later, for a step back); keys set afterwards
 * are not affected. The model: for each lock key, PTTL, then PEXPIRE with PTTL − s (at least 1 ms).
 * The two commands are not atomic; if another owner's key replaced the old one in between, that key
 * is changed instead, which a real step would also do. Nothing to heal. Thread-safe.
 */
public final class ClockStepFaults implements FaultApplier {
  private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

  private final Deployment nodes;
  private final Supplier<List<String>> lockKeys;

  /**
   * @param lockKeys the keys whose expiry the step shortens (the current run's lock keys)
   */
  public ClockStepFaults(Deployment nodes, Supplier<List<String>> lockKeys) {
    this.nodes = nodes;
    this.lockKeys = lockKeys;
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.ClockStep;
  }

  @Override
  public String apply(int id, Fault fault) {
    Fault.ClockStep step = (Fault.ClockStep) fault;
    int shortened = 0;
    for (int n : step.nodes()) {
      for (String key : lockKeys.get()) {
        Object pttl = nodes.node(n).command(COMMAND_TIMEOUT, "PTTL", key);
        if (pttl instanceof Long ms && ms > 0) {
          long left = Math.max(1, ms - step.stepMillis());
          nodes.node(n).command(COMMAND_TIMEOUT, "PEXPIRE", key, Long.toString(left));
          shortened++;
        }
      }
    }
    return "pttl model: " + shortened + " lock keys re-expired";
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
