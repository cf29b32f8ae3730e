package io.fencedlock.sim;

/** A fault the schedule injects, as plain data (Jepsen's nemesis shape); healed at the horizon. */
public sealed interface Fault {

  /** When it starts, in simulated nanoseconds. */
  long at();

  String describe();

  /** SIGSTOP: the node executes nothing, queuing what arrives, until it resumes. */
  record NodePause(int node, long at, long durationNanos) implements Fault {
    public String describe() {
      return String.format("%9.3f ms  n%d paused for %.3f ms", at / 1e6, node, durationNanos / 1e6);
    }
  }

  /** kill -9, then a restart after {@code downNanos}, with its data (AOF always) or without. */
  record NodeCrash(int node, long at, long downNanos, boolean keepsMemory) implements Fault {
    public String describe() {
      return String.format(
          "%9.3f ms  n%d crashes, %s, restarts after %.3f ms",
          at / 1e6, node, keepsMemory ? "keeps its data" : "LOSES ITS DATA", downNanos / 1e6);
    }
  }

  /** The node's clock steps by {@code deltaNanos} (either way); keys expire by it. */
  record ClockStep(int node, long at, long deltaNanos) implements Fault {
    public String describe() {
      return String.format("%9.3f ms  n%d clock steps %+.3f ms", at / 1e6, node, deltaNanos / 1e6);
    }
  }

  /** The client process stops (GC, SIGSTOP): nothing of it runs, but time goes on. */
  record ClientPause(int client, long at, long durationNanos) implements Fault {
    public String describe() {
      return String.format(
          "%9.3f ms  c%d paused for %.3f ms", at / 1e6, client, durationNanos / 1e6);
    }
  }

  /** The client calls closeAsync(). */
  record ClientClose(int client, long at) implements Fault {
    public String describe() {
      return String.format("%9.3f ms  c%d closes", at / 1e6, client);
    }
  }

  /** Every message between the client and the node is lost for a while. */
  record LinkCut(int client, int node, long at, long durationNanos) implements Fault {
    public String describe() {
      return String.format(
          "%9.3f ms  c%d-n%d link cut for %.3f ms", at / 1e6, client, node, durationNanos / 1e6);
    }
  }

  /**
   * From {@code at} on, every call into the client's metrics sink throws (the application's bug,
   * which healing does not mend): the schedule must do exactly what it does with a sink that does
   * not throw.
   */
  record ThrowingMetrics(int client, long at) implements Fault {
    public String describe() {
      return String.format("%9.3f ms  c%d's metrics sink throws from now on", at / 1e6, client);
    }
  }
}
