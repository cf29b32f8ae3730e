package io.fencedlock.sim;

import io.fencedlock.redlock.LeaseLoss;
import io.fencedlock.redlock.NodeStatus;
import io.fencedlock.redlock.RedlockMetrics;

/**
 * A client's metrics sink that records nothing and, from the {@link Fault.ThrowingMetrics} fault
 * on, throws from every recording call, as a user's buggy sink would. {@link #enabled()} never
 * throws, so a sink that is on but silent behaves exactly like one that throws, as far as the
 * client may let it: the two runs of a schedule are compared.
 */
final class SimMetrics implements RedlockMetrics {
  private final boolean mayThrow;
  private boolean throwing;

  /**
   * @param mayThrow false for the run a schedule's is compared with: the fault then changes nothing
   */
  SimMetrics(boolean mayThrow) {
    this.mayThrow = mayThrow;
  }

  /** The fault: every recording call throws from now on, to the end of the schedule. */
  void startThrowing() {
    throwing = mayThrow;
  }

  @Override
  public boolean enabled() {
    return true;
  }

  private void call() {
    if (throwing) {
      throw new IllegalStateException("simulated: the application's metrics sink throws");
    }
  }

  @Override
  public void acquired(long nanos, boolean granted) {
    call();
  }

  @Override
  public void nodeReply(NodeStatus status) {
    call();
  }

  @Override
  public void extended(long nanos, boolean confirmed) {
    call();
  }

  @Override
  public void released(long nanos) {
    call();
  }

  @Override
  public void renewal() {
    call();
  }

  @Override
  public void leaseLost(LeaseLoss.Reason reason) {
    call();
  }

  @Override
  public void handoff() {
    call();
  }

  @Override
  public void nodeExcluded() {
    call();
  }
}
