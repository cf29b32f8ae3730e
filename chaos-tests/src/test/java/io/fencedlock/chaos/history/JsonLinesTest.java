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

final class JsonLinesTest {
  @TempDir Path dir;

  @Test
  void read_whatWriteWrote_theSameOps() {
    History written =
        History.of(
            List.of(
                new Op(0, 5, OpType.INVOKE, 3, Fn.ACQUIRE, Map.of("resource", "r", "renew", true)),
                new Op(
                    1,
                    7,
                    OpType.INVOKE,
                    Op.NEMESIS,
                    Fn.FAULT_START,
                    Map.of("kind", "latency", "faultId", 2L, "toxicity", 0.5)),
                new Op(2, 9, OpType.OK, Op.NEMESIS, Fn.FAULT_START, Map.of("effect", "")),
                new Op(
                    3,
                    11,
                    OpType.INFO,
                    3,
                    Fn.ACQUIRE,
                    Map.of("token", 1795567761869017L, "error", "timed out")),
                new Op(4, 12, OpType.INVOKE, Op.TRIGGER, Fn.SIGNAL, Map.of("signal", "STOP")),
                new Op(5, 12, OpType.OK, Op.TRIGGER, Fn.SIGNAL, Map.of("client", 1L))));
    Path file = dir.resolve("history.jsonl");

    JsonLines.write(written, file);
    History read = JsonLines.read(file);

    assertThat(read.ops()).isEqualTo(written.ops());
  }

  @Test
  void read_aLineThatIsNotAnOp_namesTheLine() throws IOException {
    Path file = dir.resolve("history.jsonl");
    Files.writeString(
        file,
        "{\"index\":0,\"time\":1,\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\",\"value\":{}}\n"
            + "{\"index\":1,\"time\":2,\"type\":\"invoke\",\"process\":\"ghost\",\"f\":\"read\",\"value\":{}}\n");

    assertThatThrownBy(() -> JsonLines.read(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 2")
        .hasMessageContaining("ghost");
  }
}
