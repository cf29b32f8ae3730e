package io.fencedlock.storage.service;

import io.fencedlock.storage.store.StoreException;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns whatever ended a request early into its answer: {@link HttpProblem} to its 4xx, a body
 * deadline to 408, overload, a call skipped in the queue and a {@link StoreException} that changed
 * nothing to 503 with {@code Retry-After} (nothing changed), any other {@link StoreException} to
 * 503 (outcome unknown), anything else (a bug) to 500. Errors are JSON {@code {"error": ...}}.
 * Thread-safe.
 */
final class Failures {
  private static final Logger log = LoggerFactory.getLogger(Failures.class);

  private final ServiceMetrics metrics;
  private final String retryAfterSeconds;

  Failures(ServiceMetrics metrics, Duration retryAfter) {
    this.metrics = metrics;
    // Retry-After is whole seconds; round up so a client never comes back too early.
    this.retryAfterSeconds = Long.toString((retryAfter.toMillis() + 999) / 1000);
  }

  /** Answers {@code failure} on {@code exchange}, unless it has been answered already. */
  void answer(Exchange exchange, String endpoint, Throwable failure) {
    Throwable cause = unwrap(failure);
    if (cause instanceof HttpProblem problem) {
      Map<String, String> headers =
          problem.allow().map(allow -> Map.of("Allow", allow)).orElse(Map.of());
      JsonBodies.Error body = new JsonBodies.Error(problem.getMessage());
      if (problem.status() == 413) {
        // The rest of the body stays unread: close rather than read megabytes we refused.
        exchange.jsonAndClose(413, body, headers);
      } else {
        exchange.json(problem.status(), body, headers);
      }
    } else if (BodyReader.isTimeout(cause)) {
      if (!exchange.answered()) {
        metrics.timeout(ServiceMetrics.Phase.BODY);
      }
      exchange.jsonAndClose(408, new JsonBodies.Error(cause.getMessage()), Map.of());
    } else if (cause instanceof StoreWorkers.Overloaded) {
      metrics.overload(endpoint);
      nothingChanged(exchange, cause.getMessage());
    } else if (cause instanceof StoreWorkers.Expired expired) {
      // After a closed connection no one reads this answer; after a queue timeout the client,
      // whose own timeout is longer by default, still does.
      metrics.expired(endpoint, expired.reason());
      nothingChanged(exchange, cause.getMessage());
    } else if (cause instanceof StoreException gaveUp && gaveUp.changedNothing()) {
      // No connection free, or the database cut off a lock wait or statement before the commit.
      log.info("{} -> 503, nothing changed: {}", endpoint, gaveUp.getMessage());
      metrics.storeGaveUp(endpoint);
      nothingChanged(exchange, "storage busy: " + gaveUp.getMessage());
    } else if (cause instanceof StoreException) {
      log.warn("{} -> 503", endpoint, cause);
      exchange.json(503, new JsonBodies.Error("storage unavailable: " + cause.getMessage()));
    } else if (cause instanceof IOException) {
      // The client went away mid-request; there is no one left to answer.
      log.debug("{}: connection closed by the client", endpoint, cause);
      exchange.abort(cause);
    } else {
      log.warn("{} -> 500", endpoint, cause);
      exchange.json(500, new JsonBodies.Error("internal error"));
    }
  }

  /** 503 for a request that certainly changed nothing: safe to retry after {@code Retry-After}. */
  private void nothingChanged(Exchange exchange, String error) {
    exchange.json(
        503,
        new JsonBodies.NothingChanged(error),
        Map.of(HttpHeader.RETRY_AFTER.asString(), retryAfterSeconds));
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
