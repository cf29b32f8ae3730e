package io.fencedlock.chaos.nemesis;

/**
 * Carries out one family of faults (Jepsen's nemesis {@code invoke!}). Implementations are used
 * from the nemesis thread only, except {@link #healAll()}, which may also run from the thread that
 * closes the run; they must be safe for that.
 */
public interface FaultApplier {

  /** Whether this applier handles the fault. */
  boolean handles(Fault fault);

  /**
   * Applies the fault and says what it measured, if anything (the clock offset a node reports, the
   * bytes a power loss cut off); empty when there is nothing to say.
   *
   * @throws RuntimeException if the fault could not be (fully) applied: the caller records INFO,
   *     and the run fails
   */
  String apply(int id, Fault fault);

  /** Undoes the fault (nothing for instantaneous faults such as a clock step). */
  void heal(int id, Fault fault);

  /** Undoes every fault of this family, whatever was applied: the final heal. */
  void healAll();
}
