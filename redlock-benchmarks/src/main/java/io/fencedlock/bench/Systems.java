package io.fencedlock.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every system under test, built over one set of node URIs (direct or through the fault proxy) and
 * closed together. The names are the keys of tables and results.json.
 */
final class Systems implements AutoCloseable {
  /** The real floor: no client library, RESP by hand, one I/O thread ({@link FloorRawSystem}). */
  static final String FLOOR_RAW = "floor-raw";

  /**
   * Diagnostic for scenarios 1 and 2: floor-raw whose release is the smallest compare-and-delete
   * script, the least an unfenced lock that checks the owner can do ({@link
   * FloorRawSystem.Steps#COMPARE_AND_DELETE}).
   */
  static final String FLOOR_RAW_CAD = "floor-raw-cad";

  /**
   * Diagnostic for scenarios 1 and 2: floor-raw-cad whose acquire is the smallest fenced acquire
   * that predicts its token, the least a fenced lock's one-round-trip path can do ({@link
   * FloorRawSystem.Steps#FENCED}).
   */
  static final String FLOOR_RAW_FENCED = "floor-raw-fenced";

  /**
   * Scenario 3's floor: floor-raw with the waiting done in the process and a one-step handoff
   * ({@link FloorRawHandoffSystem}).
   */
  static final String FLOOR_RAW_HANDOFF = "floor-raw-handoff";

  /**
   * Diagnostic for scenario 3: floor-raw-handoff whose step is the smallest script that checks the
   * owner, as a real handoff step must.
   */
  static final String FLOOR_RAW_HANDOFF_SCRIPT = "floor-raw-handoff-script";

  /**
   * Scenario 3's floor between processes: a release, and the next client's take started by the
   * first node's reply to it ({@link FloorRawHandoffSystem.Step#RELEASE_THEN_TAKE}).
   */
  static final String FLOOR_RAW_HANDOFF_2_STEPS = "floor-raw-handoff-2-steps";

  /**
   * Diagnostic for scenario 3: floor-raw-handoff-2-steps with the smallest scripts a fenced lock
   * needs, compare-and-delete and a take that writes a token.
   */
  static final String FLOOR_RAW_HANDOFF_2_STEPS_SCRIPT = "floor-raw-handoff-2-steps-script";

  static final String FLOOR_1 = "floor-1";
  static final String FLOOR_N = "floor-N";

  /**
   * Control: a second floor-N, identical to the first. Its ratio to floor-N is what the run's noise
   * alone makes of two equal systems, the yardstick for every other scenario-1 ratio.
   */
  static final String FLOOR_N_AGAIN = "floor-N-again";

  /** Diagnostic: floor-N whose release is the smallest compare-and-delete script. */
  static final String FLOOR_N_CAD = "floor-N-cad";

  static final String FENCED = "redlock-fenced";
  static final String UNFENCED = "redlock-unfenced";

  /** Diagnostic for scenario 3: one fenced Redlock per client thread, as separate processes. */
  static final String FENCED_SEPARATE = "redlock-fenced-8-instances";

  static final String REDISSON_REDLOCK = "redisson-redlock";
  static final String REDISSON_FENCED = "redisson-fenced-1";

  /**
   * Scenario 3's floors, in the order they run, each with its {@link FloorRawHandoffSystem.Step}.
   */
  static final Map<String, FloorRawHandoffSystem.Step> HANDOFF_STEPS = handoffSteps();

  /** Scenario 3's floors' names, in the order they run. */
  static final List<String> HANDOFF_FLOORS = List.copyOf(HANDOFF_STEPS.keySet());

  private static Map<String, FloorRawHandoffSystem.Step> handoffSteps() {
    Map<String, FloorRawHandoffSystem.Step> steps = new LinkedHashMap<>();
    steps.put(FLOOR_RAW_HANDOFF, FloorRawHandoffSystem.Step.TRANSFER);
    steps.put(FLOOR_RAW_HANDOFF_SCRIPT, FloorRawHandoffSystem.Step.HAND_OVER);
    steps.put(FLOOR_RAW_HANDOFF_2_STEPS, FloorRawHandoffSystem.Step.RELEASE_THEN_TAKE);
    steps.put(
        FLOOR_RAW_HANDOFF_2_STEPS_SCRIPT, FloorRawHandoffSystem.Step.RELEASE_THEN_TAKE_SCRIPTS);
    return Collections.unmodifiableMap(steps);
  }

  private final List<LockSystem> all = new ArrayList<>();

  /** Starts every system; closes those already started if one fails. */
  static Systems open(List<String> uris) {
    Systems systems = new Systems();
    try {
      int quorum = uris.size() / 2 + 1;
      systems.all.add(new FloorRawSystem(FLOOR_RAW, uris, quorum));
      systems.all.add(
          new FloorRawSystem(FLOOR_RAW_CAD, uris, quorum, FloorRawSystem.Steps.COMPARE_AND_DELETE));
      systems.all.add(
          new FloorRawSystem(FLOOR_RAW_FENCED, uris, quorum, FloorRawSystem.Steps.FENCED));
      HANDOFF_STEPS.forEach(
          (floor, step) -> systems.all.add(new FloorRawHandoffSystem(floor, uris, quorum, step)));
      systems.all.add(new FloorSystem(FLOOR_1, uris.subList(0, 1), 1));
      systems.all.add(new FloorSystem(FLOOR_N, uris, quorum));
      // The control and the diagnostic explain scenario 1's ratios, so they run only there.
      systems.all.add(new FloorSystem(FLOOR_N_AGAIN, uris, quorum, false, "1"));
      systems.all.add(new FloorSystem(FLOOR_N_CAD, uris, quorum, true, "1"));
      systems.all.add(new OurRedlockSystem(UNFENCED, uris, false));
      systems.all.add(new OurRedlockSystem(FENCED, uris, true));
      systems.all.add(new SeparateRedlocksSystem(FENCED_SEPARATE, uris, HandoffScenario.CLIENTS));
      systems.all.add(new RedissonRedLockSystem(uris));
      systems.all.add(new RedissonFencedSystem(uris));
    } catch (RuntimeException e) {
      try {
        systems.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
    return systems;
  }

  List<LockSystem> all() {
    return List.copyOf(all);
  }

  @Override
  public void close() {
    closeAll(all);
  }

  /**
   * Closes every system, even if some fail; rethrows the first failure with the rest suppressed.
   */
  static void closeAll(List<? extends LockSystem> systems) {
    RuntimeException failure = null;
    for (LockSystem system : systems) {
      try {
        system.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
