package io.fencedlock.sim;

import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.Regression;
import java.util.HexFormat;
import java.util.Set;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * One client process of the simulation: a real {@link Redlock}, unchanged, over its own simulated
 * driver and timers, with seeded randomness and ids and a wall clock that is a fixed epoch plus
 * simulated time (plus this client's skew). The simulator only ever calls its asynchronous methods:
 * the blocking ones would wait for a thread that is the caller.
 */
final class SimClient {
  /** The wall clock's reading at simulated time 0: 2023-11-14T22:13:20Z. */
  static final long EPOCH_MILLIS = 1_700_000_000_000L;

  final int index;
  final Redlock redlock;
  final SimDriver driver;

  /** The client's metrics sink, if a {@link Fault.ThrowingMetrics} may make it throw; else null. */
  final @Nullable SimMetrics metrics;

  boolean closed;

  private SimClient(int index, Redlock redlock, SimDriver driver, @Nullable SimMetrics metrics) {
    this.index = index;
    this.redlock = redlock;
    this.driver = driver;
    this.metrics = metrics;
  }

  /**
   * Creates the client at the current simulated instant; {@code config} carries {@code metrics}.
   * Creation is instantaneous and fault-free: the start-up calls run on the nodes at once.
   */
  static SimClient create(
      int index,
      World world,
      RedlockConfig config,
      long seed,
      Set<Regression> regressions,
      @Nullable SimMetrics metrics) {
    SplittableRandom jitter = new SplittableRandom(Seeds.of(seed, "jitter", index));
    SplittableRandom idSource = new SplittableRandom(Seeds.of(seed, "ids", index));
    HexFormat hex = HexFormat.of();
    long skewMillis = new SplittableRandom(Seeds.of(seed, "skew", index)).nextLong(-50, 51);
    EventLoop loop = world.loop;
    Environment env =
        new Environment(
            new SimScheduler(loop, index),
            jitter,
            () -> hex.toHexDigits(idSource.nextLong()) + hex.toHexDigits(idSource.nextLong()),
            () -> EPOCH_MILLIS + skewMillis + loop.now() / 1_000_000L,
            regressions);
    SimDriver driver = new SimDriver(world, index);
    driver.instant(true);
    Redlock redlock = Redlock.create(config, driver, env);
    driver.instant(false);
    return new SimClient(index, redlock, driver, metrics);
  }
}
