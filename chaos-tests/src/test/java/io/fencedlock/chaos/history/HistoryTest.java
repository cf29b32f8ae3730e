package io.fencedlock.chaos.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class HistoryTest {

  private static Op op(long index, long time, OpType type, int process, Fn f) {
    return new Op(index, time, type, process, f, Map.of());
  }

  @Test
  void of_interleavedProcesses_pairsEachInvocationWithItsCompletion() {
    History h =
        History.of(
            List.of(
                op(0, 0, OpType.INVOKE, 0, Fn.ACQUIRE),
                op(1, 1, OpType.INVOKE, 1, Fn.ACQUIRE),
                op(2, 2, OpType.FAIL, 1, Fn.ACQUIRE),
                op(3, 3, OpType.OK, 0, Fn.ACQUIRE),
                op(4, 4, OpType.INVOKE, 0, Fn.WRITE)));

    assertThat(h.pairs()).hasSize(3);
    assertThat(h.pairs().get(0).completion().index()).isEqualTo(3);
    assertThat(h.pairs().get(1).outcome()).isEqualTo(OpType.FAIL);
    assertThat(h.pairs().get(2).completion()).isNull();
    assertThat(h.pairs().get(2).outcome())
        .as("in flight at the end counts as unknown")
        .isEqualTo(OpType.INFO);
  }

  @Test
  void of_doubleInvoke_rejected() {
    assertThatThrownBy(
            () ->
                History.of(
                    List.of(
                        op(0, 0, OpType.INVOKE, 0, Fn.ACQUIRE),
                        op(1, 1, OpType.INVOKE, 0, Fn.WRITE))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invoked twice");
  }

  @Test
  void of_completionWithoutInvocation_rejected() {
    assertThatThrownBy(() -> History.of(List.of(op(0, 0, OpType.OK, 0, Fn.ACQUIRE))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("without invocation");
  }

  @Test
  void of_completionOfAnotherFunction_rejected() {
    assertThatThrownBy(
            () ->
                History.of(
                    List.of(
                        op(0, 0, OpType.INVOKE, 0, Fn.ACQUIRE), op(1, 1, OpType.OK, 0, Fn.WRITE))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("completes WRITE");
  }

  @Test
  void of_timeGoingBackwards_rejected() {
    assertThatThrownBy(
            () ->
                History.of(
                    List.of(
                        op(0, 5, OpType.INVOKE, 0, Fn.ACQUIRE),
                        op(1, 4, OpType.OK, 0, Fn.ACQUIRE))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("back in time");
  }

  @Test
  void recorder_concurrentRecords_denseIndicesAndValidHistory() throws InterruptedException {
    HistoryRecorder recorder = new HistoryRecorder();
    Thread[] threads = new Thread[4];
    for (int p = 0; p < threads.length; p++) {
      int process = p;
      threads[p] =
          new Thread(
              () -> {
                for (int i = 0; i < 100; i++) {
                  recorder.record(OpType.INVOKE, process, Fn.ACQUIRE, Map.of());
                  recorder.record(OpType.OK, process, Fn.ACQUIRE, Map.of("token", (long) i));
                }
              });
      threads[p].start();
    }
    for (Thread t : threads) {
      t.join(10_000);
    }

    History h = recorder.snapshot();

    assertThat(h.size()).isEqualTo(800);
    assertThat(h.pairs()).allMatch(OpPair::isOk);
  }

  @Test
  void jsonLines_writesOneObjectPerOp(@TempDir Path dir) throws IOException {
    History h =
        History.of(
            List.of(
                new Op(0, 7, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_START, Map.of("fault", "kill")),
                new Op(1, 8, OpType.INVOKE, 3, Fn.WRITE, Map.of()),
                new Op(2, 9, OpType.INFO, 3, Fn.WRITE, Map.of("error", "timeout"))));
    Path file = dir.resolve("history.jsonl");

    JsonLines.write(h, file);

    assertThat(Files.readAllLines(file))
        .containsExactly(
            "{\"index\":0,\"time\":7,\"type\":\"invoke\",\"process\":\"nemesis\",\"f\":\"fault_start\",\"value\":{\"fault\":\"kill\"}}",
            "{\"index\":1,\"time\":8,\"type\":\"invoke\",\"process\":3,\"f\":\"write\",\"value\":{}}",
            "{\"index\":2,\"time\":9,\"type\":\"info\",\"process\":3,\"f\":\"write\",\"value\":{\"error\":\"timeout\"}}");
  }
}
