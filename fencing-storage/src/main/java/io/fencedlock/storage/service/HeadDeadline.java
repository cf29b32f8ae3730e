package io.fencedlock.storage.service;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes connections whose request head (request line and headers) has been arriving for longer
 * than the header timeout. Jetty's idle timeout only cuts off silence: a client that sends one
 * header byte just before each idle timeout (slowloris) would keep a connection for hours. Jetty
 * has no deadline for a whole head, but its parser records when the current message's first byte
 * arrived, so a sweep every quarter of the timeout finds the heads that are overdue. A connection
 * waiting between keep-alive requests has received nothing of its next head; the idle timeout
 * governs it.
 *
 * <p>The sweep reads parser state that the connection's own thread writes; a stale read delays a
 * close by one sweep at most, and it only ever closes a connection whose head began before the
 * deadline. It uses Jetty's {@code HttpConnection} class (HTTP/1.1), which Jetty keeps in an
 * internal package: an upgrade of Jetty may have to adapt this class. Thread-safe.
 */
final class HeadDeadline extends AbstractLifeCycle implements Runnable {
  private static final Duration LONGEST_SWEEP = Duration.ofSeconds(1);
  private static final Duration SHORTEST_SWEEP = Duration.ofMillis(10);

  private final ServerConnector connector;
  private final Scheduler scheduler;
  private final long timeoutNanos;
  private final long sweepNanos;
  private final ServiceMetrics metrics;
  private volatile Scheduler.Task next;

  HeadDeadline(
      ServerConnector connector, Scheduler scheduler, Duration timeout, ServiceMetrics metrics) {
    this.connector = connector;
    this.scheduler = scheduler;
    this.timeoutNanos = timeout.toNanos();
    Duration quarter = timeout.dividedBy(4);
    this.sweepNanos =
        Math.max(SHORTEST_SWEEP.toNanos(), Math.min(LONGEST_SWEEP.toNanos(), quarter.toNanos()));
    this.metrics = metrics;
  }

  @Override
  protected void doStart() {
    schedule();
  }

  @Override
  protected void doStop() {
    Scheduler.Task task = next;
    if (task != null) {
      task.cancel();
    }
  }

  @Override
  public void run() {
    long now = System.nanoTime();
    for (EndPoint endPoint : connector.getConnectedEndPoints()) {
      if (endPoint.getConnection() instanceof HttpConnection connection
          && overdue(connection.getParser(), now)) {
        metrics.timeout(ServiceMetrics.Phase.HEAD);
        endPoint.close();
      }
    }
    if (isRunning()) {
      schedule();
    }
  }

  private boolean overdue(HttpParser parser, long now) {
    // START: nothing of a head received yet; the idle timeout decides.
    return !parser.isStart()
        && parser.inHeaderState()
        && now - parser.getBeginNanoTime() > timeoutNanos;
  }

  private void schedule() {
    next = scheduler.schedule(this, sweepNanos, TimeUnit.NANOSECONDS);
  }
}
