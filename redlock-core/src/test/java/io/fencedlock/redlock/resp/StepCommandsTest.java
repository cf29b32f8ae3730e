package io.fencedlock.redlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.support.Timing;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A step's command is encoded once per thread, and only reused for the same objects. */
final class StepCommandsTest {

  private final StepCommands steps = new StepCommands();
  private final AtomicInteger made = new AtomicInteger();

  private StepCommands.Encoded get(Object first, Object second, long number, String... command) {
    return steps.get(
        "kind",
        first,
        second,
        null,
        number,
        () -> {
          made.incrementAndGet();
          return command;
        });
  }

  /** The bytes sent, as the command they parse back to. */
  private static Object sent(StepCommands.Encoded encoded) {
    return RespReader.read(ByteBuffer.wrap(Arrays.copyOf(encoded.bytes(), encoded.length())));
  }

  @Test
  void theSameObjects_reuseTheEncoding_anyOtherPartIsEncodedAfresh() {
    String key = "lock";
    String owner = "alice";
    StepCommands.Encoded first = get(key, owner, 1, "EXTEND", key, owner, "1");
    assertThat(get(key, owner, 1, "unused")).isSameAs(first);
    assertThat(made).hasValue(1);
    assertThat(sent(first)).isEqualTo(Arrays.asList("EXTEND", "lock", "alice", "1"));

    assertThat(sent(get(key, owner, 2, "EXTEND", key, owner, "2")))
        .isEqualTo(Arrays.asList("EXTEND", "lock", "alice", "2"));
    // Equal but not the same object: encoded afresh (only identity is trusted).
    String sameText = new String("alice");
    assertThat(sent(get(key, sameText, 2, "EXTEND", key, sameText, "2")))
        .isEqualTo(Arrays.asList("EXTEND", "lock", "alice", "2"));
    assertThat(made).hasValue(3);
  }

  /** extend.lua with a TTL of 0 and release.lua unannounced are made from the same objects. */
  @Test
  void theSameObjectsOfAnotherKind_areEncodedAfresh() {
    String key = "lock";
    String owner = "alice";
    steps.get("EXTEND", key, owner, null, 0, () -> new String[] {"EXTEND", key, owner});
    StepCommands.Encoded release =
        steps.get("RELEASE", key, owner, null, 0, () -> new String[] {"RELEASE", key, owner});
    assertThat(sent(release)).isEqualTo(Arrays.asList("RELEASE", "lock", "alice"));
  }

  @Test
  void aCommandThatCannotBeEncoded_throws_andTheNextCallsAreEncodedRight() {
    String key = "lock";
    get(key, "alice", 1, "SET", key, "alice");
    assertThatThrownBy(() -> get(key, "bob", 1, "SET", key, null))
        .isInstanceOf(NullPointerException.class);
    assertThat(sent(get(key, "bob", 1, "SET", key, "bob")))
        .isEqualTo(Arrays.asList("SET", "lock", "bob"));
    assertThat(sent(get(key, "alice", 1, "SET", key, "alice")))
        .isEqualTo(Arrays.asList("SET", "lock", "alice"));
  }

  @Test
  void aMissReusesTheThreadsBuffer_soOnlyTheLastEncodingIsValid_andLargeOnesGetTheirOwn() {
    StepCommands.Encoded a = get("a", "x", 0, "SET", "a", "x");
    StepCommands.Encoded b = get("b", "y", 0, "SET", "b", "y");
    assertThat(b.bytes()).as("the thread's buffer").isSameAs(a.bytes());
    assertThat(sent(b)).isEqualTo(Arrays.asList("SET", "b", "y"));

    String large = "v".repeat(StepCommands.KEPT_BUFFER);
    StepCommands.Encoded big = get("c", large, 0, "SET", "c", large);
    assertThat(big.bytes()).isNotSameAs(a.bytes());
    assertThat(sent(big)).isEqualTo(Arrays.asList("SET", "c", large));
    // The large array is not kept: the next small command goes to the old buffer again.
    assertThat(get("d", "z", 0, "SET", "d", "z").bytes()).isSameAs(a.bytes());

    String nonAscii = "zürich-€-𝄞";
    assertThat(sent(get("e", nonAscii, 0, "SET", "e", nonAscii)))
        .isEqualTo(Arrays.asList("SET", "e", nonAscii));
  }

  @Test
  void eachThreadHasItsOwn() throws Exception {
    StepCommands.Encoded mine = get("k", "o", 0, "SET", "k", "o");
    StepCommands.Encoded[] theirs = new StepCommands.Encoded[1];
    Thread other = new Thread(() -> theirs[0] = get("k", "o", 0, "SET", "k", "o"));
    other.start();
    other.join(Timing.AWAIT.toMillis());
    assertThat(other.isAlive()).isFalse();
    assertThat(theirs[0]).isNotSameAs(mine);
    assertThat(theirs[0].bytes()).isNotSameAs(mine.bytes());
    assertThat(made).hasValue(2);
  }
}
