package io.fencedlock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Diagnostic for the contended scenario: this project's fenced Redlock with one instance per client
 * thread, as clients in separate processes would have. A release then reaches the other waiters
 * only through its announcement, which wakes one waiter in every instance; there is no local
 * handoff. Threads get instances round robin on first use, so the {@link HandoffScenario#CLIENTS}
 * threads of one run get one each. Thread-safe.
 */
final class SeparateRedlocksSystem implements LockSystem {
  private final String name;
  private final List<OurRedlockSystem> instances = new ArrayList<>();
  private final AtomicInteger handedOut = new AtomicInteger();
  private final ThreadLocal<OurRedlockSystem> mine =
      ThreadLocal.withInitial(
          () -> instances.get(Math.floorMod(handedOut.getAndIncrement(), instances.size())));

  SeparateRedlocksSystem(String name, List<String> uris, int count) {
    this(name, uris, count, io.fencedlock.redlock.RedlockMetrics.NONE);
  }

  /** The same, every instance reporting to {@code metrics}. */
  SeparateRedlocksSystem(
      String name, List<String> uris, int count, io.fencedlock.redlock.RedlockMetrics metrics) {
    this.name = name;
    try {
      for (int i = 0; i < count; i++) {
        instances.add(new OurRedlockSystem(name + "#" + i, uris, true, metrics));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean canWait() {
    return true;
  }

  @Override
  public boolean takesPart(String scenarioId) {
    return scenarioId.equals("3"); // the contended scenario
  }

  @Override
  public Held acquire(String resource, Duration maxWait) {
    return mine.get().acquire(resource, maxWait);
  }

  @Override
  public void close() {
    Systems.closeAll(instances);
  }
}
