package io.fencedlock.chaos.history;

/** The keys of op values shared by the workload, the nemesis and the checkers. */
public final class Fields {
  /** Acquire OK, write invoke: the fencing token. */
  public static final String TOKEN = "token";

  /** Acquire OK, write invoke: the lease's owner id. */
  public static final String OWNER = "owner";

  /** Acquire OK: the lease's remaining validity when the acquire returned, in nanoseconds. */
  public static final String VALIDITY_NANOS = "validityNanos";

  /**
   * Acquire OK: when the lease's validity ends, in history time. Clients report it as an absolute
   * {@link System#nanoTime()} reading under {@link #VALID_UNTIL_ABSOLUTE}; the recorder converts
   * it, so the checker sees the exact deadline rather than one shifted by scheduling delays.
   */
  public static final String VALID_UNTIL = "validUntil";

  /** See {@link #VALID_UNTIL}: only in completions returned by clients, never in the history. */
  public static final String VALID_UNTIL_ABSOLUTE = "validUntilAbsolute";

  /** Write and canary invoke: the entry the write appends (see {@link Entries}). */
  public static final String ENTRY = "entry";

  /** Canary invoke: the canary's version read right after acquiring. */
  public static final String READ_VERSION = "readVersion";

  /** Canary OK: the version the write replaced (differs from the read one: a lost update). */
  public static final String OVERWROTE_VERSION = "overwroteVersion";

  /** Canary OK: the token of the write it replaced. */
  public static final String OVERWROTE_TOKEN = "overwroteToken";

  /** Write FAIL: the object's highest token when it was rejected. */
  public static final String CURRENT_TOKEN = "currentToken";

  /** Read OK: the fenced object's final value. */
  public static final String FENCED = "fenced";

  /** Read OK: the canary's final value. */
  public static final String CANARY = "canary";

  /** FAIL and INFO: the error message. */
  public static final String ERROR = "error";

  /** Release OK: whether the lease was still valid when released. */
  public static final String WAS_VALID = "wasValid";

  /** Nemesis ops: the fault's description. */
  public static final String FAULT = "fault";

  /** Nemesis ops: the fault's kind. */
  public static final String KIND = "kind";

  /** Nemesis ops: the fault's id within the schedule, pairing start and stop. */
  public static final String FAULT_ID = "faultId";

  /** Fault stop: true for the final heal after the schedule. */
  public static final String FINAL_HEAL = "finalHeal";

  /** Pause invoke: the planned pause in milliseconds. */
  public static final String MILLIS = "millis";

  private Fields() {}
}
