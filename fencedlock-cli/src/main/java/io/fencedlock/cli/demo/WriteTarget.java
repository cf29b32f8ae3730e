package io.fencedlock.cli.demo;

import io.fencedlock.redlock.Lease;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where the demo's clients write the shared object: the fenced storage service, or a plain register
 * that ignores tokens. The scenario runs the same steps against either.
 *
 * <p>Implementations are thread-safe.
 */
interface WriteTarget {

  /** The key of the shared object, for the timeline. */
  String key();

  /** Writes {@code value} on behalf of the holder of {@code lease}. */
  WriteOutcome write(Lease lease, String value);

  /** Reads the shared object; empty if nothing was written. */
  Optional<ReadOutcome> read();

  /**
   * How a write went.
   *
   * @param accepted whether the value was applied
   * @param currentToken on a fenced rejection, the object's highest token; otherwise empty
   * @param detail how the target answered, for the timeline
   */
  record WriteOutcome(boolean accepted, OptionalLong currentToken, String detail) {}

  /**
   * What a read returned.
   *
   * @param value the stored value
   * @param detail its fencing state or a note, for the timeline
   */
  record ReadOutcome(String value, String detail) {}
}
