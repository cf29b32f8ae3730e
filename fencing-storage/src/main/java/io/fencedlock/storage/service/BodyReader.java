package io.fencedlock.storage.service;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Reads a request body into memory without holding a thread while the client is slow: each chunk is
 * taken when Jetty has it, and the reader asks to be called back for the next. A declared {@code
 * Content-Length} over the limit is refused before reading a byte; a chunked body is read until one
 * byte past the limit at most. The whole body must arrive within the body timeout, so a client that
 * trickles a byte now and then (which an idle timeout alone never cuts off) cannot keep the request
 * open. Thread-safe; one instance per request.
 */
final class BodyReader {

  /** The body did not arrive within the body timeout. */
  static final class BodyTimeout extends Exception {
    private static final long serialVersionUID = 1L;

    BodyTimeout(Duration timeout) {
      super("request body not received within " + timeout.toMillis() + " ms", null, false, false);
    }
  }

  private final Request request;
  private final int limit;
  private final Duration timeout;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompletableFuture<byte[]> body = new CompletableFuture<>();
  private final AtomicBoolean done = new AtomicBoolean();

  private BodyReader(Request request, int limit, Duration timeout) {
    this.request = request;
    this.limit = limit;
    this.timeout = timeout;
  }

  /**
   * Reads the whole body of {@code request}.
   *
   * @return the body; completed exceptionally with {@link HttpProblem} (413, or 400 for a bad
   *     length), {@link BodyTimeout}, or the connection's failure
   */
  static CompletableFuture<byte[]> read(
      Request request, int limit, Duration timeout, Scheduler scheduler) {
    BodyReader reader = new BodyReader(request, limit, timeout);
    try {
      checkDeclaredLength(request, limit);
    } catch (HttpProblem problem) {
      reader.body.completeExceptionally(problem);
      return reader.body;
    }
    Scheduler.Task deadline =
        scheduler.schedule(reader::expire, timeout.toNanos(), TimeUnit.NANOSECONDS);
    reader.body.whenComplete((value, failure) -> deadline.cancel());
    reader.readAvailable();
    return reader.body;
  }

  private void readAvailable() {
    while (!done.get()) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        request.demand(this::readAvailable);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        finish(null, chunk.getFailure());
        return;
      }
      boolean last = chunk.isLast();
      boolean fits = append(chunk.getByteBuffer());
      chunk.release();
      if (!fits) {
        finish(null, tooLarge(limit));
        return;
      }
      if (last) {
        finish(bytes.toByteArray(), null);
        return;
      }
    }
  }

  /** Appends at most one byte past the limit; false once the body is known to be too large. */
  private boolean append(ByteBuffer buffer) {
    int room = limit + 1 - bytes.size();
    int take = Math.min(room, buffer.remaining());
    byte[] part = new byte[take];
    buffer.get(part);
    bytes.write(part, 0, take);
    return bytes.size() <= limit;
  }

  private void expire() {
    finish(null, new BodyTimeout(timeout));
  }

  private void finish(byte[] value, Throwable failure) {
    if (!done.compareAndSet(false, true)) {
      return;
    }
    if (failure == null) {
      body.complete(value);
    } else {
      body.completeExceptionally(failure);
    }
  }

  private static void checkDeclaredLength(Request request, int limit) {
    String declared = request.getHeaders().get(HttpHeader.CONTENT_LENGTH);
    if (declared == null) {
      return;
    }
    long length;
    try {
      length = Long.parseLong(declared.strip());
    } catch (NumberFormatException e) {
      throw HttpProblem.badRequest("Content-Length is not a number");
    }
    if (length > limit) {
      throw tooLarge(limit);
    }
  }

  private static HttpProblem tooLarge(int limit) {
    return HttpProblem.tooLarge("body larger than " + limit + " bytes");
  }

  /** Whether a read failure means the client was too slow rather than gone. */
  static boolean isTimeout(Throwable failure) {
    return failure instanceof BodyTimeout || failure instanceof TimeoutException;
  }
}
