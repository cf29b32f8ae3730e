package io.fencedlock.testkit;

import io.fencedlock.testkit.support.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JVM-wide record of every redis-server process and temp dir the testkit created, with one shutdown
 * hook that kills and deletes whatever is still there.
 *
 * <p>This is global state on purpose: fixtures are closed by tests, but a failing or interrupted
 * run (Ctrl-C, surefire timeout, {@code System.exit}) skips those closes, and orphaned servers
 * would hold ports and memory long after the build. It cannot help against SIGKILL of the JVM.
 *
 * <p>Thread-safe.
 */
final class ProcessRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessRegistry.class);
  private static final Duration EXIT_BOUND = Duration.ofSeconds(5);
  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
  private static final Set<Path> DIRS = ConcurrentHashMap.newKeySet();
  private static volatile boolean shuttingDown;

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(ProcessRegistry::reapAll, "fencedlock-testkit-reaper"));
  }

  private ProcessRegistry() {}

  /** Tracks {@code process} until it exits, whoever ends it. */
  static void register(Process process) {
    LIVE.add(process);
    process.onExit().thenRun(() -> LIVE.remove(process));
    if (shuttingDown) {
      // Spawned after the hook took its snapshot: nobody else will kill it.
      process.destroyForcibly();
    }
  }

  static void registerDir(Path dir) {
    DIRS.add(dir);
  }

  static void deregisterDir(Path dir) {
    DIRS.remove(dir);
  }

  private static void reapAll() {
    shuttingDown = true;
    List<Process> victims = List.copyOf(LIVE);
    if (!victims.isEmpty()) {
      continueAll(victims);
      victims.forEach(Process::destroyForcibly);
      awaitExit(victims);
    }
    for (Path dir : List.copyOf(DIRS)) {
      try {
        TempDirs.deleteRecursively(dir);
      } catch (RuntimeException e) {
        LOG.warn("Could not delete {} at JVM exit", dir, e); // best effort while exiting
      }
    }
  }

  private static void continueAll(List<Process> victims) {
    try {
      // A stopped process would sit on a pending SIGTERM; SIGKILL kills it anyway, but
      // continuing first keeps the hook correct should it ever send a catchable signal.
      Signals.send("CONT", victims.stream().map(Process::pid).toList());
    } catch (RuntimeException e) {
      // Expected when a victim exited after the snapshot; SIGKILL below still covers the rest.
      LOG.debug("SIGCONT before shutdown kill failed", e);
    }
  }

  private static void awaitExit(List<Process> victims) {
    long deadline = System.nanoTime() + EXIT_BOUND.toNanos();
    for (Process process : victims) {
      try {
        // Waiting lets this JVM reap its children, so no zombies outlive it.
        long left = Math.max(0, deadline - System.nanoTime());
        if (!process.waitFor(left, TimeUnit.NANOSECONDS)) {
          LOG.warn("redis-server pid {} still alive after SIGKILL", process.pid());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // the JVM is exiting; the SIGKILLs are already sent
      }
    }
  }
}
