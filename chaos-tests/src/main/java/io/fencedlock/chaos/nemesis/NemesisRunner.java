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
 * FAULT_START/FAULT_STOP ops as the nemesis process, with what the fault measured. Faults may
 * overlap (combined packages); at one instant heals go first. A fault that fails to apply or to
 * heal is recorded as INFO; the run goes on to its final heal, and its expectation fails it ({@code
 * faultFailures}). Not thread-safe: one runner per run.
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
    Map<String, Object> value = describe(f);
    history.record(OpType.INVOKE, Op.NEMESIS, fn, value);
    try {
      String effect = "";
      if (e.start()) {
        effect = pkg.nemesis().apply(f.id(), f.fault());
      } else {
        pkg.nemesis().heal(f.id(), f.fault());
      }
      Map<String, Object> done = value;
      if (!effect.isEmpty()) {
        done = new java.util.HashMap<>(value);
        done.put(Fields.EFFECT, effect);
      }
      history.record(OpType.OK, Op.NEMESIS, fn, done);
    } catch (RuntimeException ex) {
      history.record(OpType.INFO, Op.NEMESIS, fn, withError(value, ex));
    }
  }

  /** A fault's op value: what it is, what it touches, and what its bite depends on. */
  static Map<String, Object> describe(ScheduledFault f) {
    Map<String, Object> value = new java.util.HashMap<>();
    value.put(Fields.FAULT, f.fault().describe());
    value.put(Fields.KIND, f.fault().kind());
    value.put(Fields.FAULT_ID, (long) f.id());
    value.put(Fields.TARGETS, String.join(" ", f.fault().targets()));
    if (f.fault() instanceof Fault.Latency l) {
      value.put(Fields.LATENCY_MILLIS, (long) l.millis());
    } else if (f.fault() instanceof Fault.Toxic t) {
      if (t.type().equals("latency")) {
        value.put(Fields.LATENCY_MILLIS, t.attributes().getOrDefault("latency", 0L));
      }
      if (t.toxicity() < 1) {
        value.put(Fields.TOXICITY, (double) t.toxicity());
      }
    }
    return Map.copyOf(value);
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
