package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.checker.Checkers;
import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpType;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.testkit.Backend;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class TimelineHtmlTest {

  private static History history() {
    HistoryRecorder r = new HistoryRecorder();
    r.record(
        OpType.INVOKE,
        Op.NEMESIS,
        Fn.FAULT_START,
        Map.of(
            Fields.FAULT,
            "client 1 stalls <3 s>",
            Fields.KIND,
            "client-pause",
            Fields.FAULT_ID,
            0L));
    r.record(
        OpType.OK,
        Op.NEMESIS,
        Fn.FAULT_START,
        Map.of(
            Fields.FAULT,
            "client 1 stalls <3 s>",
            Fields.KIND,
            "client-pause",
            Fields.FAULT_ID,
            0L));
    r.record(OpType.INVOKE, 0, Fn.ACQUIRE, Map.of());
    r.record(
        OpType.OK,
        0,
        Fn.ACQUIRE,
        Map.of(
            Fields.TOKEN,
            1795239218354001L,
            Fields.OWNER,
            "ab",
            Fields.VALIDITY_NANOS,
            900_000_000L));
    r.record(
        OpType.INVOKE,
        0,
        Fn.WRITE,
        Map.of(Fields.TOKEN, 1795239218354001L, Fields.OWNER, "ab", Fields.ENTRY, "x"));
    r.record(OpType.FAIL, 0, Fn.WRITE, Map.of(Fields.CURRENT_TOKEN, 1795239218354002L));
    r.record(
        OpType.INVOKE,
        Op.NEMESIS,
        Fn.FAULT_STOP,
        Map.of(
            Fields.FAULT,
            "client 1 stalls <3 s>",
            Fields.KIND,
            "client-pause",
            Fields.FAULT_ID,
            0L));
    r.record(
        OpType.OK,
        Op.NEMESIS,
        Fn.FAULT_STOP,
        Map.of(
            Fields.FAULT,
            "client 1 stalls <3 s>",
            Fields.KIND,
            "client-pause",
            Fields.FAULT_ID,
            0L));
    return r.snapshot();
  }

  @Test
  void render_handMadeRun_svgWithRowsBandsHoldsAndEscapedLabels() {
    History h = history();
    CompositeResult checks = Checkers.compose(Checkers.standard(1), h);
    RunReport report =
        new RunReport(
            Experiments.CLIENT_PAUSE,
            5,
            Backend.PROCESS,
            new FaultSchedule(List.of()),
            RunMetrics.of(h, checks),
            checks,
            List.of("x"),
            10,
            Path.of("."),
            new RunEnvironment("6.2.11", "redis-server", "1f716094e08a", "abc1234", "none"));

    String html = TimelineHtml.render(report, h);

    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("<svg", "</svg>", "client 0", "client 2", "FAIL");
    assertThat(html)
        .contains("token 1795239218354001, process 0")
        .contains("fenced write REJECTED");
    assertThat(html).contains("client 1 stalls &lt;3 s&gt;").doesNotContain("<3 s>");
    assertThat(html).contains("--seed 5").contains("--replay");
  }
}
