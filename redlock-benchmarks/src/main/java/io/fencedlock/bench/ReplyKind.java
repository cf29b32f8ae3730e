package io.fencedlock.bench;

/**
 * The kinds of one-line RESP2 reply that the commands floor-raw sends can get: {@code +OK} (SET
 * granted, or the SET of the hand-over or take script), {@code $-1} (SET NX refused, or a script's
 * owner check or SET NX failed), {@code :n} (DEL, or the release script) and {@code -ERR ...}.
 */
enum ReplyKind {
  /** {@code +...}, a simple string; SET answers {@code +OK}. */
  STATUS,
  /** {@code -...}, an error. */
  ERROR,
  /** {@code :n}, an integer; DEL answers the number of keys deleted. */
  INTEGER,
  /**
   * {@code $-1}, the null bulk string; SET ... NX answers it when the key exists, the hand-over
   * script when the releaser does not hold the key.
   */
  NIL
}
