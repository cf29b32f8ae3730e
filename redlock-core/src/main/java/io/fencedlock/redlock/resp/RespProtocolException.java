package io.fencedlock.redlock.resp;

/**
 * Bytes from a node that are not RESP2; the connection is dropped (nothing after them can be read).
 */
final class RespProtocolException extends RuntimeException {
  RespProtocolException(String message) {
    super("garbled reply: " + message);
  }
}
