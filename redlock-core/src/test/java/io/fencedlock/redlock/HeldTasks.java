package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.Scheduler;
import java.util.ArrayList;
import java.util.List;

/**
 * A client's timers as usual, except tasks of one type, which wait until the test runs them: the
 * sweeps of lingering subscriptions ({@link ReleaseWaiters.Sweep}, due {@link
 * ReleaseWaiters#LINGER_NANOS} after they are scheduled), or the held-back deletes of a naming
 * release ({@link Nodes.HeldBackDeletes}, due a node timeout after it). So a test decides when the
 * linger or the hold is over instead of sleeping through it.
 */
final class HeldTasks implements Scheduler {
  private final Class<? extends Runnable> kind;
  private final Scheduler real;
  private final Environment environment;
  private final List<Runnable> held = new ArrayList<>();

  /** The sweeps held, over a real client's environment ({@link Environment#system()}). */
  static HeldTasks sweeps() {
    return new HeldTasks(ReleaseWaiters.Sweep.class);
  }

  /** The held-back deletes of naming releases held, over a real client's environment. */
  static HeldTasks heldBackDeletes() {
    return new HeldTasks(Nodes.HeldBackDeletes.class);
  }

  private HeldTasks(Class<? extends Runnable> kind) {
    this.kind = kind;
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
    if (!kind.isInstance(task)) {
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

  /** Runs the held tasks scheduled so far, as if they were due; returns how many ran. */
  int runHeld() {
    List<Runnable> due;
    synchronized (this) {
      due = new ArrayList<>(held);
      held.clear();
    }
    due.forEach(Runnable::run);
    return due.size();
  }

  @Override
  public java.util.concurrent.Executor work() {
    return real.work();
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
