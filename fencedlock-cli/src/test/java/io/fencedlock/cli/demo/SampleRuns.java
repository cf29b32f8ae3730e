package io.fencedlock.cli.demo;

import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_1;
import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_1_VALUE;
import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_2;
import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_2_VALUE;
import static io.fencedlock.cli.demo.KleppmannScenario.KEY;
import static io.fencedlock.cli.demo.KleppmannScenario.READER;

import io.fencedlock.cli.demo.RunResult.Mode;
import io.fencedlock.cli.demo.TimelineEvent.Acquired;
import io.fencedlock.cli.demo.TimelineEvent.LeaseRanOut;
import io.fencedlock.cli.demo.TimelineEvent.PauseBegan;
import io.fencedlock.cli.demo.TimelineEvent.PauseEnded;
import io.fencedlock.cli.demo.TimelineEvent.Read;
import io.fencedlock.cli.demo.TimelineEvent.Released;
import io.fencedlock.cli.demo.TimelineEvent.Wrote;
import io.fencedlock.cli.demo.WriteTarget.WriteOutcome;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Hand-made runs with the shape the scenario produces, for renderer and verdict tests. */
final class SampleRuns {
  static final long TOKEN_1 = 33;
  static final long TOKEN_2 = 34;

  private SampleRuns() {}

  /** A fenced run in which the stale write was rejected with {@code currentToken}. */
  static RunResult fenced(boolean client1Accepted, long currentToken, String finalValue) {
    WriteOutcome write2 = new WriteOutcome(true, OptionalLong.empty(), "200 OK");
    WriteOutcome write1 =
        client1Accepted
            ? new WriteOutcome(true, OptionalLong.empty(), "200 OK")
            : new WriteOutcome(false, OptionalLong.of(currentToken), "409 Conflict");
    return new RunResult(
        Mode.FENCED,
        events(OptionalLong.of(TOKEN_1), OptionalLong.of(TOKEN_2), write1.accepted(), finalValue),
        OptionalLong.of(TOKEN_1),
        OptionalLong.of(TOKEN_2),
        CLIENT_1_VALUE,
        CLIENT_2_VALUE,
        write2,
        write1,
        Optional.of(finalValue));
  }

  /** The expected fenced run. */
  static RunResult fencedAsExpected() {
    return fenced(false, TOKEN_2, CLIENT_2_VALUE);
  }

  /** An unfenced run whose final value is {@code finalValue}. */
  static RunResult unfenced(String finalValue) {
    WriteOutcome accepted = new WriteOutcome(true, OptionalLong.empty(), "plain register");
    return new RunResult(
        Mode.UNFENCED,
        events(OptionalLong.empty(), OptionalLong.empty(), true, finalValue),
        OptionalLong.empty(),
        OptionalLong.empty(),
        CLIENT_1_VALUE,
        CLIENT_2_VALUE,
        accepted,
        accepted,
        Optional.of(finalValue));
  }

  /** Both expected runs. */
  static DemoResult demo() {
    return new DemoResult(
        fencedAsExpected(),
        unfenced(CLIENT_1_VALUE),
        List.of("redis://127.0.0.1:7001"),
        "http://127.0.0.1:8080");
  }

  private static List<TimelineEvent> events(
      OptionalLong token1, OptionalLong token2, boolean client1Accepted, String finalValue) {
    String resource = "demo:" + KEY;
    return List.of(
        new Acquired(10, CLIENT_1, resource, token1, 1960),
        new PauseBegan(11, CLIENT_1),
        new LeaseRanOut(1971, CLIENT_1),
        new Acquired(2050, CLIENT_2, resource, token2, 1960),
        new Wrote(2070, CLIENT_2, KEY, CLIENT_2_VALUE, token2, true, "200 OK"),
        new Released(2080, CLIENT_2, true),
        new PauseEnded(2081, CLIENT_1, 2070),
        new Wrote(2090, CLIENT_1, KEY, CLIENT_1_VALUE, token1, client1Accepted, "409 Conflict"),
        new Released(2095, CLIENT_1, false),
        new Read(2100, READER, KEY, finalValue, "read"));
  }
}
