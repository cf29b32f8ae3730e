package io.fencedlock.cli.demo;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One step of a demo run, at a time relative to the run's start. Each event belongs to one actor
 * ("client 1", "client 2" or the final "reader") and can describe itself in one line.
 *
 * <p>Immutable and thread-safe.
 */
sealed interface TimelineEvent
    permits TimelineEvent.Acquired,
        TimelineEvent.PauseBegan,
        TimelineEvent.LeaseRanOut,
        TimelineEvent.PauseEnded,
        TimelineEvent.Wrote,
        TimelineEvent.Released,
        TimelineEvent.Read {

  /** Milliseconds since the run started (monotonic clock). */
  long atMillis();

  /** Who acted. */
  String actor();

  /** A one-line, human-readable account of the event. */
  String describe();

  /**
   * The actor acquired a lease.
   *
   * @param token the fencing token, empty for an unfenced lease
   * @param validityMillis the lease's remaining validity right after the acquire
   */
  record Acquired(
      long atMillis, String actor, String resource, OptionalLong token, long validityMillis)
      implements TimelineEvent {
    public Acquired {
      Objects.requireNonNull(token, "token");
    }

    /** When the lease's validity runs out, relative to the run's start. */
    long validUntilMillis() {
      return atMillis + validityMillis;
    }

    @Override
    public String describe() {
      String what =
          token.isPresent() ? "fencing token " + token.getAsLong() : "no token (unfenced)";
      return "acquires lock '" + resource + "': " + what + ", valid for " + validityMillis + " ms";
    }
  }

  /** The actor stops doing anything, as in a stop-the-world GC pause. */
  record PauseBegan(long atMillis, String actor) implements TimelineEvent {
    @Override
    public String describe() {
      return "stalls: simulated stop-the-world GC pause begins";
    }
  }

  /** The actor's lease validity ran out while it was paused; it cannot notice. */
  record LeaseRanOut(long atMillis, String actor) implements TimelineEvent {
    @Override
    public String describe() {
      return "(lease validity has run out; the paused client cannot notice)";
    }
  }

  /** The actor resumes after {@code pausedMillis}, still believing it holds the lock. */
  record PauseEnded(long atMillis, String actor, long pausedMillis) implements TimelineEvent {
    @Override
    public String describe() {
      return "wakes up after " + pausedMillis + " ms, still believing it holds the lock";
    }
  }

  /**
   * The actor wrote {@code value}.
   *
   * @param token the token sent with the write, empty for an unfenced write
   * @param accepted whether the target applied the write
   * @param detail how the target answered, e.g. {@code "409 Conflict, current token 8"}
   */
  record Wrote(
      long atMillis,
      String actor,
      String key,
      String value,
      OptionalLong token,
      boolean accepted,
      String detail)
      implements TimelineEvent {
    public Wrote {
      Objects.requireNonNull(token, "token");
    }

    @Override
    public String describe() {
      String with = token.isPresent() ? " with token " + token.getAsLong() : " (no token)";
      String verdict = accepted ? "accepted" : "REJECTED";
      return "writes " + key + " = '" + value + "'" + with + " -> " + verdict + " (" + detail + ")";
    }
  }

  /**
   * The actor released its lease.
   *
   * @param wasValid what {@code Lease.release()} returned: whether the lease was still valid
   */
  record Released(long atMillis, String actor, boolean wasValid) implements TimelineEvent {
    @Override
    public String describe() {
      return wasValid
          ? "releases the lock (lease still valid)"
          : "releases the lock: release() returns false, the lease had expired";
    }
  }

  /** The final read of the shared object. */
  record Read(long atMillis, String actor, String key, String value, String detail)
      implements TimelineEvent {
    @Override
    public String describe() {
      return "reads " + key + " -> '" + value + "' (" + detail + ")";
    }
  }
}
