package io.fencedlock.redlock.resp;

/** A node that is not connected, or whose connection broke before it answered. */
public class RespConnectionException extends RuntimeException {
  RespConnectionException(String message) {
    super(message);
  }

  RespConnectionException(String message, Throwable cause) {
    super(message, cause);
  }
}
