package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.Gson;
import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduleJson;
import io.fencedlock.testkit.Backend;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class RecordedRunTest {

  private static String results(Experiment e, long seed, FaultSchedule schedule) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("name", e.name());
    o.put("seed", seed);
    o.put("faults", schedule.faults().size());
    o.put("scheduleFaults", ScheduleJson.toJson(schedule));
    return new Gson().toJson(o);
  }

  @Test
  void parse_everyExperimentsSchedule_sameExperimentSeedAndSchedule() {
    for (Experiment e : Experiments.all()) {
      FaultSchedule schedule = ExperimentRunner.schedule(e, 11);

      RecordedRun run = RecordedRun.parse(results(e, 11, schedule));

      assertThat(run.experiment().name()).as(e.name()).isEqualTo(e.name());
      assertThat(run.seed()).isEqualTo(11);
      assertThat(run.schedule()).as(e.name()).isEqualTo(schedule);
    }
  }

  @Test
  void parse_checks_violationsAreTheFalseVerdictsButTheFaultEffects() {
    String json =
        "{\"name\":\"clock-step\",\"seed\":1,\"scheduleFaults\":[],\"checks\":["
            + "{\"checker\":\"mutual-exclusion\",\"verdict\":\"FALSE\"},"
            + "{\"checker\":\"tokens\",\"verdict\":\"TRUE\"},"
            + "{\"checker\":\"canary\",\"verdict\":\"FALSE\"},"
            + "{\"checker\":\"faults\",\"verdict\":\"FALSE\"}]}";

    RecordedRun run = RecordedRun.parse(json);

    assertThat(run.violated()).containsExactlyInAnyOrder("mutual-exclusion", "canary");
  }

  @Test
  void parse_unknownExperimentOrNoSchedule_rejected() {
    assertThatThrownBy(
            () -> RecordedRun.parse("{\"name\":\"nope\",\"seed\":1,\"scheduleFaults\":[]}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> RecordedRun.parse("{\"name\":\"network\",\"seed\":1}"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static RunReport candidate(Map<String, Verdict> verdicts, boolean passed) {
    return new RunReport(
        Experiments.CLIENT_PAUSE,
        1,
        Backend.PROCESS,
        new FaultSchedule(List.of()),
        new RunMetrics(Map.of(), verdicts),
        new CompositeResult(Verdict.TRUE, List.of()),
        passed ? List.of() : List.of("something unmet"),
        1000,
        Path.of("out"),
        new RunEnvironment("6.2.11", "/x/redis-server", "abcdef012345", "1234abc", "none"));
  }

  private static RecordedRun recorded(String verdict, String checks) {
    return RecordedRun.parse(
        "{\"name\":\"client-pause\",\"seed\":1,\"verdict\":\""
            + verdict
            + "\",\"scheduleFaults\":[],\"checks\":["
            + checks
            + "]}");
  }

  @Test
  void failsAgainIn_recordedFail_aCandidateThatPassesIsNotTheFailure() {
    RecordedRun failedControl = recorded("FAIL", "{\"checker\":\"canary\",\"verdict\":\"FALSE\"}");

    assertThat(failedControl.failed()).isTrue();
    assertThat(failedControl.failsAgainIn(candidate(Map.of("canary", Verdict.FALSE), true)))
        .isFalse();
    assertThat(failedControl.failsAgainIn(candidate(Map.of("canary", Verdict.FALSE), false)))
        .isTrue();
    assertThat(failedControl.failsAgainIn(candidate(Map.of("canary", Verdict.TRUE), false)))
        .isFalse();
  }

  @Test
  void failsAgainIn_recordedPassWithViolations_keepsTheViolations() {
    RecordedRun passedControl = recorded("PASS", "{\"checker\":\"canary\",\"verdict\":\"FALSE\"}");

    assertThat(passedControl.failed()).isFalse();
    assertThat(passedControl.failsAgainIn(candidate(Map.of("canary", Verdict.FALSE), true)))
        .isTrue();
    assertThat(passedControl.failsAgainIn(candidate(Map.of("canary", Verdict.TRUE), true)))
        .isFalse();
  }

  @Test
  void failsAgainIn_recordedFailWithoutViolations_anyFailingCandidate() {
    RecordedRun failed = recorded("FAIL", "");

    assertThat(failed.failsAgainIn(candidate(Map.of(), false))).isTrue();
    assertThat(failed.failsAgainIn(candidate(Map.of(), true))).isFalse();
    assertThat(recorded("PASS", "").failsAgainIn(candidate(Map.of(), false))).isFalse();
  }
}
