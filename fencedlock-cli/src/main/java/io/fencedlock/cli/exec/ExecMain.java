package io.fencedlock.cli.exec;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.NodeOutcome;
import io.fencedlock.redlock.NodeStatus;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.RedlockException;
import io.fencedlock.redlock.Renewal;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;

/**
 * {@code ./fencedlock exec}: runs a command while holding a lock, renewing it, and stops the
 * command if the lease is lost (see {@link ExecArgs#USAGE} for the contract and exit codes).
 */
public final class ExecMain {
  private ExecMain() {}

  /** Entry point. */
  public static void main(String[] args) {
    System.exit(run(args, System.getenv(), System.out, System.err));
  }

  static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    ExecArgs parsed;
    RedlockConfig config;
    try {
      parsed = ExecArgs.parse(args, env);
      if (parsed.help()) {
        out.print(ExecArgs.USAGE);
        return 0;
      }
      config =
          RedlockConfig.builder().nodes(parsed.nodes()).maxLeaseTtl(parsed.maxLeaseTtl()).build();
      Renewal.defaults().maxHold(parsed.maxHold()); // checks its range now, not after acquiring
    } catch (IllegalArgumentException e) {
      err.println("fencedlock exec: " + e.getMessage());
      err.print(ExecArgs.USAGE);
      return ExitCode.USAGE.code;
    }
    try (Redlock redlock = Redlock.create(config)) {
      return holdAndRun(redlock, parsed, env, err);
    } catch (IllegalArgumentException e) {
      err.println("fencedlock exec: " + e.getMessage()); // e.g. one server under two URIs
      return ExitCode.USAGE.code;
    } catch (RedlockException e) {
      err.println("fencedlock exec: " + e.getMessage());
      return ExitCode.INTERNAL.code;
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs already: it stops the command and releases
    }
  }

  private static int holdAndRun(
      Redlock redlock, ExecArgs args, Map<String, String> env, PrintStream err) {
    Lease lease;
    try {
      lease = redlock.acquire(args.resource(), args.ttl(), args.maxWait());
    } catch (LockAcquisitionException e) {
      boolean noneAnswered =
          e.outcomes().stream()
              .map(NodeOutcome::status)
              .noneMatch(
                  status ->
                      status == NodeStatus.GRANTED
                          || status == NodeStatus.REFUSED
                          || status == NodeStatus.UNINITIALIZED);
      err.println("fencedlock exec: " + e.getMessage());
      return noneAnswered ? ExitCode.NODES_UNREACHABLE.code : ExitCode.NOT_ACQUIRED.code;
    }
    // SIGTERM or Ctrl-C to exec: the command is stopped first, then the lock released, and exec
    // exits with the command's own status. Registered before the command starts, so a signal
    // in between still releases the lock.
    java.util.concurrent.atomic.AtomicReference<ChildUnderLock> running =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread onSignal =
        new Thread(
            () -> {
              ChildUnderLock started = running.get();
              if (started != null) {
                started.stop(args.grace());
              }
              lease.close();
              redlock.close();
              if (started != null) {
                Runtime.getRuntime()
                    .halt(started.exitStatusIfDone() < 0 ? 128 + 15 : started.exitStatusIfDone());
              }
            },
            "fencedlock-exec-shutdown");
    Runtime.getRuntime().addShutdownHook(onSignal);
    ChildUnderLock child;
    try {
      child = ChildUnderLock.start(args.command(), env, lease);
    } catch (IOException e) {
      removeHook(onSignal);
      lease.release();
      err.println("fencedlock exec: cannot run " + args.command().get(0) + ": " + e.getMessage());
      return 127; // as a shell does for a command it cannot run
    }
    running.set(child);
    lease.keepAlive(Renewal.defaults().ttl(args.ttl()).maxHold(args.maxHold()));
    lease
        .lost()
        .thenAccept(
            loss -> {
              err.println(
                  "fencedlock exec: the lease on '"
                      + args.resource()
                      + "' was lost ("
                      + loss.reason()
                      + ": "
                      + loss.detail()
                      + "); stopping the command");
              child.stopInBackground(args.grace(), loss.validityLeft());
            });
    int exit = child.awaitExit();
    lease.close();
    removeHook(onSignal);
    return child.stoppedBecauseLost() ? ExitCode.LEASE_LOST.code : exit;
  }
}
