package io.fencedlock.faultproxy;

import org.jspecify.annotations.Nullable;

/**
 * The fields of a proxy create, update or populate entry; null means the field was absent (or JSON
 * null, which Go's decoder also leaves unset). Immutable.
 */
record ProxyRequest(
    @Nullable String name,
    @Nullable String listen,
    @Nullable String upstream,
    @Nullable Boolean enabled) {

  /** Checks the fields create and populate require; {@code where} is appended to the field name. */
  void requireNameAndUpstream(String where) {
    if (name == null || name.isEmpty()) {
      throw ApiException.missingField("name" + where);
    }
    if (upstream == null || upstream.isEmpty()) {
      throw ApiException.missingField("upstream" + where);
    }
  }
}
