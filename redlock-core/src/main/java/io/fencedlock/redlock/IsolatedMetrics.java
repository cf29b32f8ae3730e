package io.fencedlock.redlock;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured {@link RedlockMetrics}, each call isolated: what a method throws is logged (at
 * WARN with the exception the first time that method fails, at DEBUG after that) and goes no
 * further, so a faulty sink never changes what the client does (a throw in mid-step stranded local
 * handoffs and made renewals fail). A client wraps its sink once, at creation, and calls it only
 * through the wrapper. Thread-safe if the sink is.
 *
 * <p>Each method has its own try/catch, not a shared helper taking a lambda: no allocation per call
 * (some run several times per acquire).
 */
final class IsolatedMetrics implements RedlockMetrics {
  private static final Logger log = LoggerFactory.getLogger(IsolatedMetrics.class);

  private final RedlockMetrics sink;

  /** The methods that have failed at least once. */
  private final Set<String> failed = ConcurrentHashMap.newKeySet();

  private IsolatedMetrics(RedlockMetrics sink) {
    this.sink = sink;
  }

  /** {@code sink} isolated; {@link RedlockMetrics#NONE} as it is (it cannot throw). */
  static RedlockMetrics of(RedlockMetrics sink) {
    return sink == NONE ? NONE : new IsolatedMetrics(sink);
  }

  /** True if the sink's own answer fails: then the other methods are called, each isolated. */
  @Override
  public boolean enabled() {
    try {
      return sink.enabled();
    } catch (Throwable e) { // anything: the protocol step that asked must run on
      failed("enabled", e);
      return true;
    }
  }

  @Override
  public void acquired(long nanos, boolean granted) {
    try {
      sink.acquired(nanos, granted);
    } catch (Throwable e) {
      failed("acquired", e);
    }
  }

  @Override
  public void nodeReply(NodeStatus status) {
    try {
      sink.nodeReply(status);
    } catch (Throwable e) {
      failed("nodeReply", e);
    }
  }

  @Override
  public void extended(long nanos, boolean confirmed) {
    try {
      sink.extended(nanos, confirmed);
    } catch (Throwable e) {
      failed("extended", e);
    }
  }

  @Override
  public void released(long nanos) {
    try {
      sink.released(nanos);
    } catch (Throwable e) {
      failed("released", e);
    }
  }

  @Override
  public void renewal() {
    try {
      sink.renewal();
    } catch (Throwable e) {
      failed("renewal", e);
    }
  }

  @Override
  public void leaseLost(LeaseLoss.Reason reason) {
    try {
      sink.leaseLost(reason);
    } catch (Throwable e) {
      failed("leaseLost", e);
    }
  }

  @Override
  public void handoff() {
    try {
      sink.handoff();
    } catch (Throwable e) {
      failed("handoff", e);
    }
  }

  @Override
  public void nodeExcluded() {
    try {
      sink.nodeExcluded();
    } catch (Throwable e) {
      failed("nodeExcluded", e);
    }
  }

  private void failed(String method, Throwable e) {
    if (failed.add(method)) {
      log.warn(
          "the metrics sink {} threw in {}(); ignored, and logged at DEBUG from now on",
          sink.getClass().getName(),
          method,
          e);
    } else {
      log.debug("the metrics sink threw in {}()", method, e);
    }
  }
}
