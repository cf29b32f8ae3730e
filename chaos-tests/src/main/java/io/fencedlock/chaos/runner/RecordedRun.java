package io.fencedlock.chaos.runner;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fencedlock.chaos.checker.FaultEffectChecker;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduleJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a {@code results.json} recorded, enough to run it again: the experiment (from the catalogue,
 * with the recorded fault count), the seed (ops and proxy draws) and the schedule itself (not
 * regenerated from the seed, so a shrunk or hand-edited schedule replays as written), and which
 * checkers found a violation (what a shrink must keep failing). Immutable.
 *
 * @param experiment the experiment
 * @param seed the seed
 * @param schedule the faults
 * @param violated the checkers that found a violation in the recorded run (verdict FALSE), but for
 *     the fault-effect checker
 * @param failed whether the recorded run's expectation did not hold (verdict FAIL)
 */
record RecordedRun(
    Experiment experiment,
    long seed,
    FaultSchedule schedule,
    Set<String> violated,
    boolean failed) {
  RecordedRun {
    violated = Set.copyOf(violated);
  }

  /**
   * Reads {@code results.json}.
   *
   * @throws IllegalArgumentException if it names no known experiment or has no schedule
   */
  static RecordedRun read(Path resultsJson) {
    String text;
    try {
      text = Files.readString(resultsJson, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resultsJson, e);
    }
    return parse(text);
  }

  static RecordedRun parse(String resultsJson) {
    JsonObject o = JsonParser.parseString(resultsJson).getAsJsonObject();
    if (!o.has("name") || !o.has("seed") || !o.has("scheduleFaults")) {
      throw new IllegalArgumentException("not a results.json: needs name, seed and scheduleFaults");
    }
    String name = o.get("name").getAsString();
    Experiment experiment =
        Experiments.byName(name)
            .orElseThrow(() -> new IllegalArgumentException("unknown experiment '" + name + "'"));
    if (o.has("faults")) {
      experiment = experiment.withFaults(o.get("faults").getAsInt());
    }
    Set<String> violated = new TreeSet<>();
    if (o.has("checks")) {
      for (JsonElement check : o.getAsJsonArray("checks")) {
        JsonObject c = check.getAsJsonObject();
        // Whether each fault bit is a fact about the schedule, not a failure of the lock: a
        // shrink that must keep it could never drop a fault.
        if (Verdict.FALSE.name().equals(c.get("verdict").getAsString())
            && !FaultEffectChecker.NAME.equals(c.get("checker").getAsString())) {
          violated.add(c.get("checker").getAsString());
        }
      }
    }
    // A results.json without a verdict is taken as a failure: what --shrink is for.
    boolean failed = !o.has("verdict") || !"PASS".equals(o.get("verdict").getAsString());
    return new RecordedRun(
        experiment,
        o.get("seed").getAsLong(),
        ScheduleJson.fromJson(o.get("scheduleFaults")),
        violated,
        failed);
  }

  /**
   * Whether {@code candidate} failed the way this run did: every checker that found a violation
   * here finds one again, and a run whose expectation did not hold has a candidate whose
   * expectation does not hold either. A negative control that passed (its expectation wants its
   * violation) shrinks towards the same violations; one that failed (its violation, or its
   * progress, went missing) must keep failing, so a candidate that passes the control is never
   * taken for the failure.
   */
  boolean failsAgainIn(RunReport candidate) {
    if (failed && candidate.passed()) {
      return false;
    }
    if (!failed && violated.isEmpty()) {
      return false; // a passing run without violations has nothing to keep
    }
    return violated.stream().allMatch(c -> candidate.metrics().verdict(c) == Verdict.FALSE);
  }
}
