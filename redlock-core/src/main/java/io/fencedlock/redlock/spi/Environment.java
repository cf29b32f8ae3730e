package io.fencedlock.redlock.spi;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * What the algorithm uses of the world besides the nodes and the {@link
 * io.fencedlock.redlock.Ticker}: a scheduler for its timers, randomness for retry jitter and
 * backoff, random ids (owner ids and node incarnation names), and the wall clock (read only for the
 * epoch of a node's marker). A {@link io.fencedlock.redlock.Redlock} owns its environment and shuts
 * its scheduler down when it closes.
 *
 * @param scheduler the timers
 * @param random jitter and backoff; must be safe to call from any thread the algorithm runs on
 * @param ids 128-bit random ids as 32 hex digits; unpredictable in production (owner ids are what
 *     separates one client's key from another's)
 * @param wallClockMillis the wall clock, in milliseconds since the epoch
 * @param regressions bugs to put back, for the simulator's teeth only (see {@link Regression});
 *     empty in every real client
 */
public record Environment(
    Scheduler scheduler,
    RandomGenerator random,
    Supplier<String> ids,
    LongSupplier wallClockMillis,
    Set<Regression> regressions) {

  public Environment {
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(ids, "ids");
    Objects.requireNonNull(wallClockMillis, "wallClockMillis");
    regressions = Set.copyOf(regressions);
  }

  /** An environment without regressions. */
  public Environment(
      Scheduler scheduler,
      RandomGenerator random,
      Supplier<String> ids,
      LongSupplier wallClockMillis) {
    this(scheduler, random, ids, wallClockMillis, Set.of());
  }

  /** Whether {@code bug} was put back. */
  public boolean reintroduces(Regression bug) {
    return regressions.contains(bug);
  }

  /**
   * The environment of a real client: one daemon thread for timers, {@link ThreadLocalRandom},
   * {@link SecureRandom} ids and {@link System#currentTimeMillis()}.
   */
  public static Environment system() {
    return new Environment(
        new ThreadScheduler("redlock-retry"),
        new CurrentThreadRandom(),
        new SecureIds(new SecureRandom()),
        System::currentTimeMillis);
  }

  /**
   * 128-bit ids from a {@link SecureRandom}, drawn 4 KiB at a time: the same bytes one call each
   * would give, but one call into the generator (a lock, a read of the kernel's pool and a SHA-1
   * mix) per 256 ids instead of per id, which was about 2 % of an uncontended acquire + release's
   * CPU (docs/analysis.md, section 10).
   */
  static final class SecureIds implements Supplier<String> {
    private static final int ID_BYTES = 16;
    private final SecureRandom secure;
    private final byte[] pool = new byte[4096];

    /** Guarded by {@code this}: the next unused byte of {@link #pool}. */
    private int next = pool.length;

    SecureIds(SecureRandom secure) {
      this.secure = secure;
    }

    @Override
    public String get() {
      byte[] id = new byte[ID_BYTES];
      synchronized (this) {
        if (next == pool.length) {
          secure.nextBytes(pool);
          next = 0;
        }
        System.arraycopy(pool, next, id, 0, ID_BYTES);
        // Each byte is handed out once: a used id's bytes are overwritten before they could be
        // returned again.
        java.util.Arrays.fill(pool, next, next + ID_BYTES, (byte) 0);
        next += ID_BYTES;
      }
      return HexFormat.of().formatHex(id);
    }
  }

  /** {@link ThreadLocalRandom} of whichever thread calls, so one instance serves every thread. */
  private static final class CurrentThreadRandom implements RandomGenerator {
    @Override
    public long nextLong() {
      return ThreadLocalRandom.current().nextLong();
    }

    @Override
    public long nextLong(long bound) {
      return ThreadLocalRandom.current().nextLong(bound);
    }
  }
}
