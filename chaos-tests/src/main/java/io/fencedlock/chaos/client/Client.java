package io.fencedlock.chaos.client;

import io.fencedlock.chaos.history.Fn;
import java.util.Map;

/**
 * A Jepsen-style client: performs one operation at a time against the system under test. A definite
 * failure is returned as FAIL; an exception means the outcome is unknown and is turned into INFO by
 * {@link RecordingClient}. Not thread-safe: one worker thread per client.
 */
public interface Client extends AutoCloseable {

  /** Performs {@code f} with the invocation's value. */
  Completion invoke(Fn f, Map<String, Object> value);

  /** Releases what the client holds. */
  @Override
  void close();
}
