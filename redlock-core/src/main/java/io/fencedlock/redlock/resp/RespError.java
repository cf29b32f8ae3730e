package io.fencedlock.redlock.resp;

/**
 * An error reply ({@code -ERR ...}, {@code -NOSCRIPT ...}, {@code -WRONGPASS ...}).
 *
 * @param message the line after the '-'
 */
record RespError(String message) {

  boolean isNoScript() {
    return message.startsWith("NOSCRIPT");
  }
}
