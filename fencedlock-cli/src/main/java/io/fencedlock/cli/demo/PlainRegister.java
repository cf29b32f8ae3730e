package io.fencedlock.cli.demo;

import io.fencedlock.redlock.Lease;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The unfenced path: a last-writer-wins register that trusts whoever holds (or believes it holds)
 * the lock and never looks at a token, like most storage a lock is used to protect.
 *
 * <p>Thread-safe: one atomic reference.
 */
final class PlainRegister implements WriteTarget {
  private final String key;
  private final AtomicReference<String> value = new AtomicReference<>();

  PlainRegister(String key) {
    this.key = key;
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public WriteOutcome write(Lease lease, String newValue) {
    value.set(newValue);
    return new WriteOutcome(true, OptionalLong.empty(), "plain register, no token check");
  }

  @Override
  public Optional<ReadOutcome> read() {
    return Optional.ofNullable(value.get()).map(v -> new ReadOutcome(v, "last writer wins"));
  }
}
