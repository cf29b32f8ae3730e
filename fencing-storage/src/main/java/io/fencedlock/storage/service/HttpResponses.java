package io.fencedlock.storage.service;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/** Writes complete responses. Stateless and thread-safe. */
final class HttpResponses {
  private static final String JSON = "application/json; charset=utf-8";
  private static final String BYTES = "application/octet-stream";

  private HttpResponses() {}

  /** Sends {@code body} as JSON with {@code status}. */
  static void json(HttpExchange exchange, int status, Object body) throws IOException {
    send(exchange, status, JSON, JsonBodies.encode(body));
  }

  /** Sends raw bytes with status 200. */
  static void bytes(HttpExchange exchange, byte[] body) throws IOException {
    send(exchange, 200, BYTES, body);
  }

  private static void send(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    // -1 means "no body"; 0 would mean chunked to HttpServer.
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      // Closing the body stream flushes the response before the server drains any unread
      // request body, so a client that is still sending sees an early 413 promptly.
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
