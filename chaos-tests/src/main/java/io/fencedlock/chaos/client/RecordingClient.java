package io.fencedlock.chaos.client;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.OpType;
import java.util.HashMap;
import java.util.Map;

/**
 * Wraps a {@link Client} so every call is recorded as an invocation and a completion under the
 * current process id. An exception becomes INFO (the outcome is unknown) and retires the process:
 * the worker goes on under a fresh id, {@code process + concurrency}, as in Jepsen, so that the
 * client's index is always {@code process % concurrency}. Not thread-safe: one per worker.
 */
public final class RecordingClient implements AutoCloseable {
  private final Client delegate;
  private final HistoryRecorder history;
  private final int concurrency;
  private int process;

  /**
   * @param client the client index, also its first process id
   * @param concurrency the number of clients
   */
  public RecordingClient(Client delegate, HistoryRecorder history, int client, int concurrency) {
    this.delegate = delegate;
    this.history = history;
    this.concurrency = concurrency;
    this.process = client;
  }

  /** The current process id. */
  public int process() {
    return process;
  }

  /** Invokes {@code f}, records both ends, and returns the completion. */
  public Completion call(Fn f, Map<String, Object> value) {
    history.record(OpType.INVOKE, process, f, value);
    Completion done;
    try {
      done = delegate.invoke(f, value);
    } catch (RuntimeException e) {
      done = new Completion(OpType.INFO, Map.of(Fields.ERROR, String.valueOf(e)));
    }
    history.record(done.type(), process, f, toHistoryTime(done.value()));
    if (done.type() == OpType.INFO) {
      process += concurrency;
    }
    return done;
  }

  /** Converts an absolute deadline reported by the client into history time. */
  private Map<String, Object> toHistoryTime(Map<String, Object> value) {
    Object absolute = value.get(Fields.VALID_UNTIL_ABSOLUTE);
    if (!(absolute instanceof Long at)) {
      return value;
    }
    Map<String, Object> converted = new HashMap<>(value);
    converted.remove(Fields.VALID_UNTIL_ABSOLUTE);
    converted.put(Fields.VALID_UNTIL, history.relative(at));
    return converted;
  }

  @Override
  public void close() {
    delegate.close();
  }
}
