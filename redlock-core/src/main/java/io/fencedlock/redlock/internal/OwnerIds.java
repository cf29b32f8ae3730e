package io.fencedlock.redlock.internal;

import java.security.SecureRandom;
import java.util.HexFormat;

/** Makes 128-bit random owner ids as 32 lowercase hex digits. Thread-safe. */
final class OwnerIds {
  private final SecureRandom random = new SecureRandom();

  String next() {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
