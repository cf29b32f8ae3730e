package io.fencedlock.chaos.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.OpType;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class RecordingClientTest {

  /** A client whose answer is fixed per call: a pure unit, so a stub is fine here. */
  private static final class Scripted implements Client {
    private final RuntimeException failure;

    Scripted(RuntimeException failure) {
      this.failure = failure;
    }

    @Override
    public Completion invoke(Fn f, Map<String, Object> value) {
      if (failure != null) {
        throw failure;
      }
      return f == Fn.ACQUIRE ? Completion.ok(Map.of("token", 1L)) : Completion.fail(Map.of());
    }

    @Override
    public void close() {}
  }

  @Test
  void call_ok_recordsInvokeAndOkUnderSameProcess() {
    HistoryRecorder recorder = new HistoryRecorder();
    RecordingClient client = new RecordingClient(new Scripted(null), recorder, 1, 3);

    Completion done = client.call(Fn.ACQUIRE, Map.of());

    History h = recorder.snapshot();
    assertThat(done.type()).isEqualTo(OpType.OK);
    assertThat(h.ops()).extracting(o -> o.type()).containsExactly(OpType.INVOKE, OpType.OK);
    assertThat(h.ops()).allMatch(o -> o.process() == 1);
    assertThat(client.process()).isEqualTo(1);
  }

  @Test
  void call_definiteFailure_recordsFailAndKeepsProcess() {
    HistoryRecorder recorder = new HistoryRecorder();
    RecordingClient client = new RecordingClient(new Scripted(null), recorder, 1, 3);

    assertThat(client.call(Fn.WRITE, Map.of()).type()).isEqualTo(OpType.FAIL);
    assertThat(client.process()).isEqualTo(1);
  }

  @Test
  void call_exception_recordsInfoAndMovesToFreshProcess() {
    HistoryRecorder recorder = new HistoryRecorder();
    RecordingClient client =
        new RecordingClient(
            new Scripted(new IllegalStateException("connection reset")), recorder, 1, 3);

    Completion first = client.call(Fn.WRITE, Map.of());
    client.call(Fn.WRITE, Map.of());

    History h = recorder.snapshot();
    assertThat(first.type()).isEqualTo(OpType.INFO);
    assertThat(first.value())
        .containsEntry("error", "java.lang.IllegalStateException: connection reset");
    assertThat(h.ops()).extracting(o -> o.process()).containsExactly(1, 1, 4, 4);
    assertThat(client.process() % 3).as("the client index is kept").isEqualTo(1);
  }

  @Test
  void call_absoluteDeadline_recordedInHistoryTime() {
    HistoryRecorder recorder = new HistoryRecorder();
    long deadline = System.nanoTime() + 5_000_000_000L;
    Client deadlineClient =
        new Client() {
          @Override
          public Completion invoke(Fn f, Map<String, Object> value) {
            return Completion.ok(Map.of("validUntilAbsolute", deadline));
          }

          @Override
          public void close() {}
        };

    new RecordingClient(deadlineClient, recorder, 0, 1).call(Fn.ACQUIRE, Map.of());

    var ok = recorder.snapshot().ops().get(1);
    assertThat(ok.value()).doesNotContainKey("validUntilAbsolute");
    assertThat(ok.longValue("validUntil", -1)).isEqualTo(recorder.relative(deadline));
  }
}
