package io.fencedlock.storage.service;

import java.util.Optional;

/**
 * A request the service refuses with a 4xx status before touching any state. Thrown by parsing and
 * validation, turned into a JSON error by {@code Router}. Immutable.
 */
final class HttpProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final transient Optional<String> allow;

  private HttpProblem(int status, String message, Optional<String> allow) {
    super(message, null, false, false);
    this.status = status;
    this.allow = allow;
  }

  static HttpProblem badRequest(String message) {
    return new HttpProblem(400, message, Optional.empty());
  }

  static HttpProblem notFound(String message) {
    return new HttpProblem(404, message, Optional.empty());
  }

  static HttpProblem methodNotAllowed(String method, String allow) {
    return new HttpProblem(
        405, "method " + method + " not allowed here, use " + allow, Optional.of(allow));
  }

  static HttpProblem tooLarge(String message) {
    return new HttpProblem(413, message, Optional.empty());
  }

  int status() {
    return status;
  }

  /** The value for the {@code Allow} header of a 405. */
  Optional<String> allow() {
    return allow;
  }
}
