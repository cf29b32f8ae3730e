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

  /** Client ops and final reads: the resource (lock name, and the key of its fenced object). */
  public static final String RESOURCE = "resource";

  /**
   * Write and canary completions (and the acquire's canary read): the register's value read inside
   * the read-modify-write, an {@link Entries} list.
   */
  public static final String READ = "read";

  /**
   * Acquire completion, canary invoke: the unfenced canary's value read right after acquiring, in
   * the lease's read-modify-write of the canary.
   */
  public static final String CANARY_READ = "canaryRead";

  /** Acquire invoke: the TTL in milliseconds; extend invoke: the requested TTL. */
  public static final String TTL_MILLIS = "ttlMillis";

  /** Acquire invoke: the longest wait in milliseconds. */
  public static final String MAX_WAIT_MILLIS = "maxWaitMillis";

  /** Acquire invoke: whether the lease is kept alive by renewal. */
  public static final String RENEW = "renew";

  /** Write invoke: how long the holder works before it writes, in milliseconds. */
  public static final String WORK_MILLIS = "workMillis";

  /** Extend completion: whether the extend was confirmed by a quorum. */
  public static final String EXTENDED = "extended";

  /** Write completion: which step ended it (fence, read, put). */
  public static final String STEP = "step";

  /** Observations and signals: the client index. */
  public static final String CLIENT = "client";

  /** Observations: the node index. */
  public static final String NODE = "node";

  /** Observations: what was observed (a node failure, a re-admission, ...). */
  public static final String OBSERVED = "observed";

  /** Signals: the signal sent to a client process (STOP, CONT, KILL). */
  public static final String SIGNAL = "signal";

  /** Signals and client faults: where in the client's code the signal landed. */
  public static final String POINT = "point";

  /** Re-admission observations: the epoch a client gave a node, and its wall clock × 1000. */
  public static final String EPOCH = "epoch";

  /** See {@link #EPOCH}. */
  public static final String WALL_EPOCH = "wallEpoch";

  /** Storage probes after a restart: the highest token the object kept. */
  public static final String STORED_TOKEN = "storedToken";

  /** Fault starts: what the fault touches, space-separated (see {@code Fault.targets()}). */
  public static final String TARGETS = "targets";

  /** Fault starts of latency faults: the added delay in milliseconds. */
  public static final String LATENCY_MILLIS = "latencyMillis";

  /** Fault starts: the share of connections a toxic applies to, when below 1. */
  public static final String TOXICITY = "toxicity";

  /** Fault ops: what the fault measured when applied (bytes of AOF lost, clock offset read). */
  public static final String EFFECT = "effect";

  private Fields() {}
}
