package io.fencedlock.faultproxy;

/**
 * State one toxic keeps per link across its runs (updates restart the run, not the state). Only
 * limit_data uses it. Not thread-safe: confined to the I/O loop thread.
 */
final class ToxicState {

  /** Bytes limit_data has let through on this link so far. */
  long bytesTransmitted;
}
