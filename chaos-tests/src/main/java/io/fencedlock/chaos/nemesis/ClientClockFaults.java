package io.fencedlock.chaos.nemesis;

import io.fencedlock.chaos.fixture.FakeTime;
import java.util.function.IntFunction;

/**
 * Steps the wall clocks of client processes that run under libfaketime ({@link
 * Fault.ClientClockStep}); the final heal sets them back to real time. Thread-safe.
 */
public final class ClientClockFaults implements FaultApplier {
  private final int clients;
  private final IntFunction<FakeTime> clocks;

  public ClientClockFaults(int clients, IntFunction<FakeTime> clocks) {
    this.clients = clients;
    this.clocks = clocks;
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.ClientClockStep;
  }

  @Override
  public String apply(int id, Fault fault) {
    Fault.ClientClockStep step = (Fault.ClientClockStep) fault;
    for (int c : step.clients()) {
      FakeTime clock = clocks.apply(c);
      clock.set(clock.offsetMillis() + step.stepMillis());
    }
    return "";
  }

  @Override
  public void heal(int id, Fault fault) {
    // A step is instantaneous; the clocks stay there until the final heal.
  }

  @Override
  public void healAll() {
    for (int c = 0; c < clients; c++) {
      clocks.apply(c).set(0);
    }
  }
}
