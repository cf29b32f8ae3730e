package io.fencedlock.redlock;

/** A metrics sink whose every method throws: the client must work on as if it recorded nothing. */
final class ThrowingMetrics implements RedlockMetrics {

  private static RuntimeException broken() {
    return new IllegalStateException("this metrics sink is broken (a test's)");
  }

  @Override
  public boolean enabled() {
    throw broken();
  }

  @Override
  public void acquired(long nanos, boolean granted) {
    throw broken();
  }

  @Override
  public void nodeReply(NodeStatus status) {
    throw broken();
  }

  @Override
  public void extended(long nanos, boolean confirmed) {
    throw broken();
  }

  @Override
  public void released(long nanos) {
    throw broken();
  }

  @Override
  public void renewal() {
    throw broken();
  }

  @Override
  public void leaseLost(LeaseLoss.Reason reason) {
    throw broken();
  }

  @Override
  public void handoff() {
    throw broken();
  }

  @Override
  public void nodeExcluded() {
    throw broken();
  }
}
