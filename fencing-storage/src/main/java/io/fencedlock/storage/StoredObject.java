package io.fencedlock.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * An object as read from the store: its value and its fencing state.
 *
 * <p>{@code token} and {@code owner} are the object's <em>highest</em> token and its owner (the
 * high-water mark), which may be newer than the write that produced {@code value} if a holder
 * fenced the object after that write. Immutable and thread-safe: the value is copied on the way in
 * and on the way out.
 *
 * @param value the stored bytes (possibly empty, never null)
 * @param token the object's highest fencing token
 * @param owner the owner that holds {@code token}
 */
public record StoredObject(byte[] value, long token, String owner) {

  /** Validates and copies the components. */
  public StoredObject {
    value = Objects.requireNonNull(value, "value").clone();
    Objects.requireNonNull(owner, "owner");
  }

  /** Returns a copy of the stored bytes. */
  @Override
  public byte[] value() {
    return value.clone();
  }

  /** Returns the value decoded as UTF-8, for tests and logs. */
  public String valueAsUtf8() {
    return new String(value, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredObject other
        && token == other.token
        && owner.equals(other.owner)
        && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(value), token, owner);
  }

  @Override
  public String toString() {
    return "StoredObject[" + value.length + " bytes, token=" + token + ", owner=" + owner + "]";
  }
}
