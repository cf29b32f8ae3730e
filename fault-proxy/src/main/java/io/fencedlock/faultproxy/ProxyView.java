package io.fencedlock.faultproxy;

import java.util.List;

/**
 * A snapshot of one proxy as the API shows it. Immutable and thread-safe, so it can leave the I/O
 * loop and be serialised on an API thread.
 *
 * @param toxics upstream toxics first, then downstream ones, each in insertion order
 */
record ProxyView(
    String name, String listen, String upstream, boolean enabled, List<ToxicConfig> toxics) {

  ProxyView {
    toxics = List.copyOf(toxics);
  }
}
