package io.fencedlock.storage.service;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
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
 * <p>Blank lines (CR, LF) before a request line are padding that HTTP allows: the parser skips them
 * and stays at the start of a message (refusing them only past the head size limit, 8 KiB, which a
 * byte every few seconds takes days to reach), and restamps its begin time with every one. So a
 * connection that has received padding and still no request line is timed from the sweep that first
 * saw it so; as for any head, it is closed within one sweep of the deadline.
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

  /**
   * Connections seen receiving padding only, with the message count and time of the sweep that
   * first saw it. Used by the sweep alone, one sweep after another (each one schedules the next).
   */
  private Map<HttpConnection, Padding> padding = new HashMap<>();

  /** A connection seen in padding since {@code sinceNanos}, with this many messages received. */
  private record Padding(long messagesIn, long sinceNanos) {}

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
    Map<HttpConnection, Padding> stillPadding = new HashMap<>();
    for (EndPoint endPoint : connector.getConnectedEndPoints()) {
      if (endPoint.getConnection() instanceof HttpConnection connection
          && (overdue(connection.getParser(), now)
              || paddedTooLong(connection, now, stillPadding))) {
        metrics.timeout(ServiceMetrics.Phase.HEAD);
        endPoint.close();
      }
    }
    padding = stillPadding;
    if (isRunning()) {
      schedule();
    }
  }

  /**
   * Whether {@code connection} has received only padding of its next message for longer than the
   * timeout; records it in {@code stillPadding} if it is padding now. A parser at the start with a
   * begin time has seen bytes since its last reset (after each message), and all were padding.
   */
  private boolean paddedTooLong(
      HttpConnection connection, long now, Map<HttpConnection, Padding> stillPadding) {
    HttpParser parser = connection.getParser();
    if (!parser.isStart() || parser.getBeginNanoTime() == 0) {
      return false;
    }
    long messages = connection.getMessagesIn();
    Padding seen = padding.get(connection);
    if (seen == null || seen.messagesIn() != messages) {
      seen = new Padding(messages, now);
    }
    stillPadding.put(connection, seen);
    return now - seen.sinceNanos() > timeoutNanos;
  }

  private boolean overdue(HttpParser parser, long now) {
    // START: no request line yet (padding at most, which paddedTooLong times).
    return !parser.isStart()
        && parser.inHeaderState()
        && now - parser.getBeginNanoTime() > timeoutNanos;
  }

  private void schedule() {
    next = scheduler.schedule(this, sweepNanos, TimeUnit.NANOSECONDS);
  }
}
