package io.fencedlock.cli.demo;

import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_1_VALUE;
import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_2_VALUE;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class RunResultTest {

  @Test
  void asExpected_fencedStaleWriteRejectedWithClient2Token_isTrue() {
    RunResult run = SampleRuns.fencedAsExpected();

    assertThat(run.staleWriteRejected()).isTrue();
    assertThat(run.lostUpdate()).isFalse();
    assertThat(run.asExpected()).isTrue();
    assertThat(run.verdict()).contains("rejected").endsWith("[as expected]");
  }

  @Test
  void asExpected_fencedRejectionNamesAnotherToken_isFalse() {
    RunResult run = SampleRuns.fenced(false, SampleRuns.TOKEN_2 + 1, CLIENT_2_VALUE);

    assertThat(run.asExpected()).isFalse();
  }

  @Test
  void asExpected_fencedStaleWriteAccepted_isFalse() {
    RunResult run = SampleRuns.fenced(true, 0, CLIENT_1_VALUE);

    assertThat(run.lostUpdate()).isTrue();
    assertThat(run.asExpected()).isFalse();
    assertThat(run.verdict()).startsWith("LOST UPDATE").endsWith("[NOT as expected]");
  }

  @Test
  void asExpected_unfencedLostUpdate_isTrue() {
    RunResult run = SampleRuns.unfenced(CLIENT_1_VALUE);

    assertThat(run.lostUpdate()).isTrue();
    assertThat(run.asExpected()).isTrue();
  }

  @Test
  void asExpected_unfencedClient2ValueSurvives_isFalse() {
    RunResult run = SampleRuns.unfenced(CLIENT_2_VALUE);

    assertThat(run.asExpected()).isFalse();
  }

  @Test
  void asExpected_demoWithOneUnexpectedRun_isFalse() {
    DemoResult demo =
        new DemoResult(
            SampleRuns.fencedAsExpected(),
            SampleRuns.unfenced(CLIENT_2_VALUE),
            SampleRuns.demo().nodeUris(),
            "http://x");

    assertThat(SampleRuns.demo().asExpected()).isTrue();
    assertThat(demo.asExpected()).isFalse();
  }
}
