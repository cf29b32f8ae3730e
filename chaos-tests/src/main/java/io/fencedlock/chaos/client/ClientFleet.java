package io.fencedlock.chaos.client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The client processes of a workload, one slot per client: started together, restarted one by one
 * when the nemesis killed one (the next op of its worker starts a fresh process, as Jepsen replaces
 * a crashed client), and stopped together. What the processes report is routed to the handlers set
 * for the current run: targeted points to the nemesis, observations to the history. Thread-safe.
 */
public final class ClientFleet implements AutoCloseable {
  /** Reacts to a client that reached an armed point; must end by calling {@code go()}. */
  public interface PointHandler {
    void reached(int client, ClientProcess process, Point point);
  }

  private final List<ClientArgs> args;
  private final List<Map<String, String>> env;
  private final Path logDir;
  private final Duration startTimeout;
  private final ClientProcess[] current; // guarded by this
  private final int[] restarts; // guarded by this
  private volatile PointHandler points;
  private volatile BiConsumer<Integer, Map<String, Object>> observer = (c, v) -> {};

  private final ClientProcess.Listener listener =
      new ClientProcess.Listener() {
        @Override
        public void reached(ClientProcess process, Point point) {
          PointHandler handler = points;
          if (handler == null) {
            process.go(); // disarmed meanwhile: nothing to do there
          } else {
            handler.reached(process.client(), process, point);
          }
        }

        @Override
        public void observed(ClientProcess process, Map<String, Object> value) {
          observer.accept(process.client(), value);
        }
      };

  /**
   * @param args each client's arguments, in client order
   * @param env each client's extra environment (libfaketime for a skewed wall clock, or empty)
   * @param logDir where each process's standard error goes
   */
  public ClientFleet(
      List<ClientArgs> args, List<Map<String, String>> env, Path logDir, Duration startTimeout) {
    this.args = List.copyOf(args);
    this.env = List.copyOf(env);
    this.logDir = logDir;
    this.startTimeout = startTimeout;
    this.current = new ClientProcess[args.size()];
    this.restarts = new int[args.size()];
  }

  /** Starts every client process at once and waits until all are ready. */
  public synchronized void start() {
    for (int c = 0; c < current.length; c++) {
      current[c] = spawn(c);
    }
    for (ClientProcess p : current) {
      p.awaitReady(startTimeout);
    }
  }

  private ClientProcess spawn(int client) {
    return ClientProcess.start(
        args.get(client), env.get(client), logDir.resolve("client-" + client + ".log"), listener);
  }

  public int size() {
    return current.length;
  }

  /** The client's process as it is: possibly stopped, possibly dead. */
  public synchronized ClientProcess current(int client) {
    return current[client];
  }

  /**
   * The client's process, started afresh if the last one died (waits until it is ready).
   *
   * @throws IllegalStateException if a fresh process does not come up
   */
  public ClientProcess live(int client) {
    ClientProcess process;
    synchronized (this) {
      process = current[client];
      if (process.isAlive()) {
        return process;
      }
      process.close();
      process = spawn(client);
      current[client] = process;
      restarts[client]++;
    }
    process.awaitReady(startTimeout); // outside the lock: the nemesis may signal others meanwhile
    return process;
  }

  /** How many times each client's process was restarted so far. */
  public synchronized int restarts() {
    int total = 0;
    for (int r : restarts) {
      total += r;
    }
    return total;
  }

  /** Where targeted points go; null to let every client go on at once. */
  public void onPoint(PointHandler handler) {
    this.points = handler;
  }

  /** Where observations go (client index, value). */
  public void onObservation(BiConsumer<Integer, Map<String, Object>> handler) {
    this.observer = handler;
  }

  @Override
  public synchronized void close() {
    List<RuntimeException> failures = new ArrayList<>();
    for (ClientProcess p : current) {
      if (p == null) {
        continue;
      }
      try {
        p.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }
}
