package io.fencedlock.storage.service;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body into memory only if it fits the limit. A declared {@code Content-Length}
 * over the limit is refused without reading a byte; a chunked body is read until one byte past the
 * limit at most. Stateless and thread-safe.
 */
final class BoundedBody {

  private BoundedBody() {}

  /**
   * Returns the whole body.
   *
   * @throws HttpProblem 413 if the body is larger than {@code limit}, 400 for a bad length header
   * @throws IOException if the connection fails while reading
   */
  static byte[] read(HttpExchange exchange, int limit) throws IOException {
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    if (declared != null) {
      checkDeclaredLength(declared.strip(), limit);
    }
    InputStream body = exchange.getRequestBody();
    byte[] bytes = body.readNBytes(limit + 1);
    if (bytes.length > limit) {
      throw tooLarge(limit);
    }
    return bytes;
  }

  private static void checkDeclaredLength(String declared, int limit) {
    long length;
    try {
      length = Long.parseLong(declared);
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
}
