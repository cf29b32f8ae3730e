package io.fencedlock.chaos.client;

import io.fencedlock.chaos.fixture.FakeTime;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * A client process's skewed wall clock: the machine's wall clock plus the offset that the harness
 * writes to a {@link FakeTime} file, re-read on every call so that steps take effect at once. The
 * lock library reads the wall clock only to compute a re-admission epoch (rarely), so re-reading is
 * cheap enough.
 *
 * <p>Why not libfaketime, as for the Redis nodes: a JVM under libfaketime with its monotonic clock
 * left alone ({@code FAKETIME_DONT_FAKE_MONOTONIC=1}, which the harness needs because it compares
 * the clients' {@code System.nanoTime()} readings with its own) is unusably slow with libfaketime
 * 0.9.10: {@code Thread.sleep(1)} took about 40 ms and start-up several seconds, so the clients
 * missed their start bound. Thread-safe.
 */
public final class OffsetWallClock implements LongSupplier {
  /** The environment variable naming the offset file. */
  public static final String FILE_VARIABLE = "FENCEDLOCK_CHAOS_CLOCK_FILE";

  private final Path file;

  public OffsetWallClock(Path file) {
    this.file = file;
  }

  @Override
  public long getAsLong() {
    return System.currentTimeMillis() + FakeTime.readOffsetMillis(file);
  }
}
