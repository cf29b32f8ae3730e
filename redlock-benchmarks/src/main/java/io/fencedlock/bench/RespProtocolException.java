package io.fencedlock.bench;

/** A node sent bytes that are not a reply floor-raw can get: the connection cannot go on. */
final class RespProtocolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  RespProtocolException(String message) {
    super(message);
  }
}
