package io.fencedlock.storage.service;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One request and its answer, which is sent exactly once: the first of the normal answer, an error,
 * or a body deadline wins, and later attempts do nothing. When the response is written (or fails)
 * it completes Jetty's callback and records the request's latency. Thread-safe: the answer may come
 * from a store thread, an HTTP thread or the body deadline's timer.
 */
final class Exchange {
  private static final String JSON = "application/json; charset=utf-8";
  private static final String BYTES = "application/octet-stream";

  private final Request request;
  private final Response response;
  private final Callback callback;
  private final ServiceMetrics metrics;
  private final long startNanos = System.nanoTime();
  private final AtomicBoolean answered = new AtomicBoolean();
  private volatile String endpoint = "unknown";

  Exchange(Request request, Response response, Callback callback, ServiceMetrics metrics) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.metrics = metrics;
  }

  Request request() {
    return request;
  }

  /** Names the endpoint for the latency meter, once the route is known. */
  void endpoint(String endpoint) {
    this.endpoint = endpoint;
  }

  /**
   * Whether the connection is still open, so that someone may still read the answer. Jetty closes
   * it on a stop, and when it fails; a client that merely gave up is seen here only once Jetty
   * notices.
   */
  boolean connectionOpen() {
    return request.getConnectionMetaData().getConnection().getEndPoint().isOpen();
  }

  /** Whether an answer has been sent (or begun). */
  boolean answered() {
    return answered.get();
  }

  /** Answers {@code body} as JSON. */
  void json(int status, Object body) {
    json(status, body, Map.of());
  }

  /** Answers {@code body} as JSON with extra headers. */
  void json(int status, Object body, Map<String, String> headers) {
    send(status, JSON, JsonBodies.encode(body), headers, false);
  }

  /** Answers an error as JSON and closes the connection afterwards (request body left unread). */
  void jsonAndClose(int status, Object body, Map<String, String> headers) {
    send(status, JSON, JsonBodies.encode(body), headers, true);
  }

  /** Answers raw bytes with status 200 and extra headers. */
  void bytes(byte[] body, Map<String, String> headers) {
    send(200, BYTES, body, headers, false);
  }

  /** Gives up without an answer (the client is gone); Jetty closes the connection. */
  void abort(Throwable cause) {
    if (answered.compareAndSet(false, true)) {
      metrics.request(endpoint, 0, System.nanoTime() - startNanos);
      callback.failed(cause);
    }
  }

  private void send(
      int status, String contentType, byte[] body, Map<String, String> headers, boolean close) {
    if (!answered.compareAndSet(false, true)) {
      return;
    }
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    headers.forEach((name, value) -> response.getHeaders().put(name, value));
    if (close) {
      response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    }
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), completion(status));
  }

  private Callback completion(int status) {
    return Callback.from(
        () -> {
          metrics.request(endpoint, status, System.nanoTime() - startNanos);
          callback.succeeded();
        },
        failure -> {
          // The client went away while we answered; Jetty closes the connection.
          metrics.request(endpoint, status, System.nanoTime() - startNanos);
          callback.failed(failure);
        });
  }
}
