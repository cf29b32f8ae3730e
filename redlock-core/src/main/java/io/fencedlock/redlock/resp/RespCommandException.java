package io.fencedlock.redlock.resp;

/** A node answered a command with an error reply; the message is the node's. */
public final class RespCommandException extends RuntimeException {
  RespCommandException(String message) {
    super(message);
  }
}
