package io.fencedlock.sim;

import java.util.concurrent.TimeoutException;

/**
 * The failures a simulated driver reports. Without stack traces: they are values here, made by the
 * thousand, and filling a stack trace costs more than the rest of a request.
 */
final class SimFailures {
  private SimFailures() {}

  /** A node timeout: what the Lettuce driver's request timer reports. */
  static final class Timeout extends TimeoutException {
    Timeout(String message) {
      super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  /** A request that could not be sent (node down, driver closed). */
  static final class Unavailable extends RuntimeException {
    Unavailable(String message) {
      super(message, null, false, false);
    }
  }
}
