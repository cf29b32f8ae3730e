package io.fencedlock.redlock.driver;

/** Options of a node driver that are not part of {@link io.fencedlock.redlock.RedlockConfig}. */
public final class DriverOptions {
  private boolean markerCheck = true;

  private DriverOptions() {}

  /** The defaults: every node's initialization marker is checked. */
  public static DriverOptions defaults() {
    return new DriverOptions();
  }

  /**
   * UNSAFE, for experiments only: acquires no longer refuse on a node without its initialization
   * marker, so a node that restarted without its data counts towards quorums at once and fencing
   * tokens can go backwards. It exists so that experiments can show that the check matters
   * (docs/analysis.md, sections 5 and 9).
   */
  public DriverOptions withoutMarkerCheckUnsafe() {
    this.markerCheck = false;
    return this;
  }

  /** Whether acquires refuse on a node without its marker (acquire.lua's ARGV[3]). */
  public boolean checksMarker() {
    return markerCheck;
  }
}
