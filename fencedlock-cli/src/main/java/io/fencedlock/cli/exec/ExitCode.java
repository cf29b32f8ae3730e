package io.fencedlock.cli.exec;

/**
 * The exit codes of {@code ./fencedlock exec} that are its own; any other is the command's. Chosen
 * from sysexits.h where one fits, so they rarely clash with a command's own codes.
 */
enum ExitCode {
  /** Bad options or arguments (EX_USAGE). */
  USAGE(64),
  /** No node answered: the lock service is unreachable (EX_UNAVAILABLE). */
  NODES_UNREACHABLE(69),
  /** Something failed in exec itself (EX_SOFTWARE). */
  INTERNAL(70),
  /** The lock was not acquired within --wait: held by someone else (EX_TEMPFAIL). */
  NOT_ACQUIRED(75),
  /** The lease was lost while the command ran; the command was sent SIGTERM, then SIGKILL. */
  LEASE_LOST(76);

  final int code;

  ExitCode(int code) {
    this.code = code;
  }
}
