package io.fencedlock.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.storage.WriteResult.Accepted;
import io.fencedlock.storage.WriteResult.Reason;
import io.fencedlock.storage.WriteResult.Rejected;
import org.junit.jupiter.api.Test;

/** The small value types: {@link StoredObject} and {@link WriteResult}. */
final class ValuesTest {

  @Test
  void storedObject_value_copiedInAndOut() {
    byte[] value = {1, 2};
    StoredObject object = new StoredObject(value, 1, "o");
    value[0] = 9;
    object.value()[1] = 9;

    assertThat(object.value()).containsExactly(1, 2);
  }

  @Test
  void storedObject_equality_byContent() {
    assertThat(new StoredObject(new byte[] {1}, 1, "o"))
        .isEqualTo(new StoredObject(new byte[] {1}, 1, "o"))
        .hasSameHashCodeAs(new StoredObject(new byte[] {1}, 1, "o"))
        .isNotEqualTo(new StoredObject(new byte[] {2}, 1, "o"))
        .isNotEqualTo(new StoredObject(new byte[] {1}, 2, "o"));
  }

  @Test
  void writeResult_isAccepted_onlyForAccepted() {
    assertThat(new Accepted(1).isAccepted()).isTrue();
    assertThat(new Rejected(1, Reason.STALE).isAccepted()).isFalse();
    assertThatThrownBy(() -> new Rejected(1, null)).isInstanceOf(NullPointerException.class);
  }
}
