package io.fencedlock.chaos.client;

import java.io.PrintStream;
import java.util.Map;

/**
 * A client process's side of the protocol's output: whole {@link Wire} lines on the stream the
 * harness reads, never interleaved. Thread-safe (synchronized): ops, checkpoints and observations
 * are reported from different threads.
 */
final class ClientOutput {
  private final PrintStream out;

  ClientOutput(PrintStream out) {
    this.out = out;
  }

  synchronized void send(Map<String, ?> message) {
    out.println(Wire.encode(message));
    out.flush();
  }
}
