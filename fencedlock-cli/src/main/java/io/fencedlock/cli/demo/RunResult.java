package io.fencedlock.cli.demo;

import io.fencedlock.cli.demo.WriteTarget.WriteOutcome;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What happened in one run of the scenario, fenced or not, and whether that is what the run is
 * meant to show. Immutable and thread-safe.
 *
 * @param mode fenced (tokens checked by the storage service) or unfenced (plain register)
 * @param events the run's timeline
 * @param client1Token client 1's fencing token, empty when unfenced
 * @param client2Token client 2's fencing token, empty when unfenced
 * @param client1Value what client 1 tried to write after its pause (the stale write)
 * @param client2Value what client 2 wrote while client 1 was paused
 * @param client2Write how client 2's write went
 * @param client1Write how client 1's stale write went
 * @param finalValue the shared object's value at the end, empty if nothing was stored
 */
record RunResult(
    Mode mode,
    List<TimelineEvent> events,
    OptionalLong client1Token,
    OptionalLong client2Token,
    String client1Value,
    String client2Value,
    WriteOutcome client2Write,
    WriteOutcome client1Write,
    Optional<String> finalValue) {

  /** The two paths the demo plays. */
  enum Mode {
    FENCED("fenced", "fencing tokens checked by the storage service"),
    UNFENCED("unfenced", "the same steps without fencing: a plain register, no token check");

    private final String label;
    private final String title;

    Mode(String label, String title) {
      this.label = label;
      this.title = title;
    }

    String label() {
      return label;
    }

    String title() {
      return title;
    }
  }

  /** Validates and copies the components. */
  RunResult {
    Objects.requireNonNull(mode, "mode");
    events = List.copyOf(events);
    Objects.requireNonNull(client1Token, "client1Token");
    Objects.requireNonNull(client2Token, "client2Token");
    Objects.requireNonNull(client2Write, "client2Write");
    Objects.requireNonNull(client1Write, "client1Write");
    Objects.requireNonNull(finalValue, "finalValue");
  }

  /** Client 1's stale write was rejected, naming client 2's token as the current one. */
  boolean staleWriteRejected() {
    return !client1Write.accepted()
        && client2Token.isPresent()
        && client1Write.currentToken().equals(client2Token);
  }

  /** Client 2's acknowledged write was overwritten by client 1's stale one. */
  boolean lostUpdate() {
    return client2Write.accepted() && finalValue.equals(Optional.of(client1Value));
  }

  /**
   * Whether the run shows what it should: fenced, the stale write is rejected and client 2's value
   * survives; unfenced, client 2's update is lost.
   */
  boolean asExpected() {
    if (mode == Mode.FENCED) {
      return client2Write.accepted()
          && staleWriteRejected()
          && finalValue.equals(Optional.of(client2Value));
    }
    return client1Write.accepted() && lostUpdate();
  }

  /** One line saying what the run showed. */
  String verdict() {
    String shown;
    if (staleWriteRejected() && finalValue.equals(Optional.of(client2Value))) {
      shown = "client 1's stale write was rejected; client 2's update survives";
    } else if (lostUpdate()) {
      shown = "LOST UPDATE: client 1's stale write overwrote client 2's acknowledged write";
    } else {
      shown = "final value " + finalValue.map(v -> "'" + v + "'").orElse("(none)");
    }
    return shown + (asExpected() ? " [as expected]" : " [NOT as expected]");
  }
}
