package io.fencedlock.chaos.nemesis;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a schedule on the calling thread: applies and heals each fault at its time, recording
 * FAULT_START/FAULT_STOP ops as the nemesis process; a failed application is recorded as INFO and
 * the run goes on. Not thread-safe: one runner per run.
 */
public final class NemesisRunner {
  private final NemesisPackage pkg;
  private final HistoryRecorder history;

  public NemesisRunner(NemesisPackage pkg, HistoryRecorder history) {
    this.pkg = pkg;
    this.history = history;
  }

  private record Event(long atMillis, boolean start, ScheduledFault fault) {}

  /**
   * Runs every event of the schedule, timed from {@code originNanos} (a {@link System#nanoTime()}
   * reading). Returns early, without healing, if the thread is interrupted; the caller's final heal
   * covers that.
   */
  public void run(long originNanos) {
    List<Event> events = new ArrayList<>();
    for (ScheduledFault f : pkg.schedule().faults()) {
      events.add(new Event(f.startMillis(), true, f));
      events.add(new Event(f.endMillis(), false, f));
    }
    // At the same instant: heals first, so back-to-back faults never overlap; then starts; an
    // instantaneous fault's own stop comes after its start.
    events.sort(Comparator.comparingLong(Event::atMillis).thenComparingInt(NemesisRunner::order));
    for (Event e : events) {
      if (!waitUntil(originNanos + TimeUnit.MILLISECONDS.toNanos(e.atMillis()))) {
        return;
      }
      step(e);
    }
  }

  private static int order(Event e) {
    if (e.start()) {
      return 1;
    }
    return e.fault().durationMillis() == 0 ? 2 : 0;
  }

  private void step(Event e) {
    ScheduledFault f = e.fault();
    Fn fn = e.start() ? Fn.FAULT_START : Fn.FAULT_STOP;
    Map<String, Object> value =
        Map.of(
            Fields.FAULT,
            f.fault().describe(),
            Fields.KIND,
            f.fault().kind(),
            Fields.FAULT_ID,
            (long) f.id());
    history.record(OpType.INVOKE, Op.NEMESIS, fn, value);
    try {
      if (e.start()) {
        pkg.nemesis().apply(f.id(), f.fault());
      } else {
        pkg.nemesis().heal(f.id(), f.fault());
      }
      history.record(OpType.OK, Op.NEMESIS, fn, value);
    } catch (RuntimeException ex) {
      history.record(OpType.INFO, Op.NEMESIS, fn, withError(value, ex));
    }
  }

  /**
   * Heals everything and records it as the final heal; a failure is recorded as INFO and rethrown.
   */
  public void finalHeal() {
    Map<String, Object> value =
        Map.of(Fields.FINAL_HEAL, true, Fields.KIND, "heal", Fields.FAULT, "final heal");
    history.record(OpType.INVOKE, Op.NEMESIS, Fn.FAULT_STOP, value);
    try {
      pkg.finalHeal();
      history.record(OpType.OK, Op.NEMESIS, Fn.FAULT_STOP, value);
    } catch (RuntimeException ex) {
      history.record(OpType.INFO, Op.NEMESIS, Fn.FAULT_STOP, withError(value, ex));
      throw ex;
    }
  }

  private static Map<String, Object> withError(Map<String, Object> value, RuntimeException ex) {
    Map<String, Object> v = new java.util.HashMap<>(value);
    v.put(Fields.ERROR, String.valueOf(ex));
    return v;
  }

  /** Waits (the fault's timing, not synchronisation) until the deadline; false if interrupted. */
  private static boolean waitUntil(long deadlineNanos) {
    long left;
    while ((left = deadlineNanos - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
