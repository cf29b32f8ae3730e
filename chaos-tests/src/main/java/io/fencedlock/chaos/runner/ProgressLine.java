package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.OpType;
import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Prints a progress line every two seconds while a run is going: elapsed time, operations and the
 * latest acquire. Owns one daemon thread, stopped by {@link #close()}. Thread-safe.
 */
final class ProgressLine implements AutoCloseable {
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "chaos-progress");
            t.setDaemon(true);
            return t;
          });

  ProgressLine(String label, long plannedMillis, HistoryRecorder history, PrintStream out) {
    timer.scheduleAtFixedRate(
        () ->
            out.printf(
                "  [%s] %5.1f s of ~%.0f s, %d ops, last acquire at %.1f s%n",
                label,
                history.now() / 1e9,
                plannedMillis / 1e3,
                history.size(),
                Math.max(0, history.lastTime(Fn.ACQUIRE, OpType.OK)) / 1e9),
        2,
        2,
        TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
