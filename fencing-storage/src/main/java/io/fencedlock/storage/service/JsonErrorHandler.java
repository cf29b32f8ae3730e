package io.fencedlock.storage.service;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error answers (a request it cannot parse, a head too large, a URI it refuses) in the
 * service's format, JSON {@code {"error": ...}}, so a client sees one error shape whoever answered.
 * Stateless and thread-safe.
 */
final class JsonErrorHandler extends ErrorHandler {
  private static final String JSON = "application/json; charset=utf-8";

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, JSON);
    return ByteBuffer.wrap(JsonBodies.encode(new JsonBodies.Error(message(status, reason))));
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus();
    Object reason = request.getAttribute(ERROR_MESSAGE);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
    byte[] body =
        JsonBodies.encode(
            new JsonBodies.Error(message(status, reason == null ? null : reason.toString())));
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  private static String message(int status, String reason) {
    return reason == null || reason.isBlank() ? "HTTP " + status : reason;
  }
}
