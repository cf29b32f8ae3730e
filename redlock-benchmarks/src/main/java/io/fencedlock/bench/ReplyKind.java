package io.fencedlock.bench;

/**
 * The kinds of one-line RESP2 reply that the commands floor-raw sends can get: {@code +OK} (SET
 * granted), {@code $-1} (SET refused), {@code :n} (DEL) and {@code -ERR ...}.
 */
enum ReplyKind {
  /** {@code +...}, a simple string; SET answers {@code +OK}. */
  STATUS,
  /** {@code -...}, an error. */
  ERROR,
  /** {@code :n}, an integer; DEL answers the number of keys deleted. */
  INTEGER,
  /** {@code $-1}, the null bulk string; SET ... NX answers it when the key exists. */
  NIL
}
