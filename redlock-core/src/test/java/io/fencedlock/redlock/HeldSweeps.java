package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.Scheduler;
import java.util.ArrayList;
import java.util.List;

/**
 * A client's timers as usual, except the sweeps of lingering subscriptions ({@link
 * ReleaseWaiters.Sweep}, due {@link ReleaseWaiters#LINGER_NANOS} after they are scheduled), which
 * wait until the test runs them: so a test decides when the linger is over instead of sleeping
 * through it.
 */
final class HeldSweeps implements Scheduler {
  private final Scheduler real;
  private final Environment environment;
  private final List<Runnable> held = new ArrayList<>();

  /** Over a real client's environment ({@link Environment#system()}). */
  HeldSweeps() {
    Environment system = Environment.system();
    this.real = system.scheduler();
    this.environment =
        new Environment(this, system.random(), system.ids(), system.wallClockMillis());
  }

  /** The environment to create a client with; the client owns it, as usual. */
  Environment environment() {
    return environment;
  }

  @Override
  public Task schedule(Runnable task, long delayNanos) {
    if (!(task instanceof ReleaseWaiters.Sweep)) {
      return real.schedule(task, delayNanos);
    }
    synchronized (this) {
      held.add(task);
    }
    return () -> {
      synchronized (this) {
        held.remove(task);
      }
    };
  }

  /** Runs the sweeps scheduled so far, as if the linger were over; returns how many ran. */
  int runSweeps() {
    List<Runnable> due;
    synchronized (this) {
      due = new ArrayList<>(held);
      held.clear();
    }
    due.forEach(Runnable::run);
    return due.size();
  }

  @Override
  public boolean isSchedulerThread() {
    return real.isSchedulerThread();
  }

  @Override
  public void shutdown() {
    real.shutdown();
  }
}
