package io.fencedlock.chaos.client;

/**
 * The unfenced canary: an in-process register that accepts every write and reports what it
 * overwrote, so that a write made under a lock that another holder also held shows up as a lost
 * update. Thread-safe (synchronized).
 */
public final class CanaryRegister {

  /**
   * The register's state. Immutable.
   *
   * @param version how many writes it has taken
   * @param value its value
   * @param token the token of the writer of this version (-1 initially)
   */
  public record Snapshot(long version, String value, long token) {}

  private Snapshot current = new Snapshot(0, "", -1);

  /** Reads the register. */
  public synchronized Snapshot read() {
    return current;
  }

  /** Writes unconditionally and returns what was overwritten. */
  public synchronized Snapshot write(String value, long token) {
    Snapshot old = current;
    current = new Snapshot(old.version() + 1, value, token);
    return old;
  }
}
