package io.fencedlock.testkit;

import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.support.Timing;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/** Assertions about OS processes, observed through {@link ProcessHandle}. */
final class Processes {
  private Processes() {}

  static boolean isAlive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Waits (bounded) until none of the pids is alive. */
  static void awaitAllDead(Collection<Long> pids) {
    await("pids " + pids + " to be gone")
        .atMost(Timing.AWAIT)
        .pollInterval(Timing.POLL)
        .until(() -> pids.stream().noneMatch(Processes::isAlive));
  }

  /** The pids of redis-server processes that are children of this JVM. */
  static List<Long> redisChildren() {
    Path binary = RedisBinary.locate().path();
    return ProcessHandle.current()
        .children()
        .filter(child -> child.info().command().map(c -> Path.of(c).equals(binary)).orElse(false))
        .map(ProcessHandle::pid)
        .toList();
  }
}
