package io.fencedlock.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends POSIX signals the JDK has no API for (SIGSTOP, SIGCONT) through the {@code kill} command,
 * and observes the resulting process state in {@code /proc}.
 *
 * <p>Public for the harnesses that pause and kill their own child processes (the chaos harness's
 * client and storage processes). Stateless and thread-safe.
 */
public final class Signals {
  private static final Duration KILL_COMMAND_TIMEOUT = Duration.ofSeconds(5);

  private Signals() {}

  /**
   * Runs {@code kill -<signal> <pids...>}.
   *
   * @throws IllegalStateException if kill fails, e.g. because a process is gone
   */
  public static void send(String signal, Collection<Long> pids) {
    List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
    pids.forEach(pid -> command.add(Long.toString(pid)));
    Commands.Result result = Commands.run(command, KILL_COMMAND_TIMEOUT);
    if (result.exitCode() != 0) {
      throw new IllegalStateException(
          command + " exited " + result.exitCode() + ": " + result.output().strip());
    }
  }

  /**
   * Waits until the process is (or is no longer) in the stopped state, so that pause() returns only
   * once the server really cannot answer. Returns early where /proc is unavailable, because then
   * kill(2) having returned is the best evidence we can get.
   *
   * @throws IllegalStateException if the state is not reached within {@code bound}
   */
  public static void awaitStopped(long pid, boolean stopped, Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    long pauseNanos = TimeUnit.MICROSECONDS.toNanos(100);
    while (true) {
      Character state = procState(pid);
      if (state == null || isStoppedState(state) == stopped) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "pid " + pid + " still in state " + state + " after " + bound);
      }
      LockSupport.parkNanos(pauseNanos);
      pauseNanos = Math.min(pauseNanos * 2, TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  private static boolean isStoppedState(char state) {
    return state == 'T' || state == 't';
  }

  /** The state letter from /proc/pid/stat, or null if it cannot be read. */
  private static Character procState(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command name in parentheses may contain spaces, so parse after the last ')'.
      int end = stat.lastIndexOf(')');
      return end < 0 || end + 2 >= stat.length() ? null : stat.charAt(end + 2);
    } catch (NoSuchFileException e) {
      return null; // no /proc (not Linux) or process gone: nothing left to observe
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read state of pid " + pid, e);
    }
  }
}
