package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.checker.CanaryChecker;
import io.fencedlock.chaos.checker.CheckResult;
import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.checker.DurabilityChecker;
import io.fencedlock.chaos.checker.FaultEffectChecker;
import io.fencedlock.chaos.checker.FencedResourceChecker;
import io.fencedlock.chaos.checker.LivenessChecker;
import io.fencedlock.chaos.checker.MutualExclusionChecker;
import io.fencedlock.chaos.checker.TokenChecker;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpPair;
import io.fencedlock.chaos.history.OpType;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers of one run, from its history and checker results: named counts (see the constants)
 * and each checker's verdict. Immutable.
 *
 * @param counts named counts; absent means 0
 * @param verdicts each checker's verdict, by checker name
 */
public record RunMetrics(Map<String, Long> counts, Map<String, Verdict> verdicts) {
  public static final String OPERATIONS = "operations";
  public static final String ACQUISITIONS = "acquisitions";
  public static final String ACQUIRE_FAILURES = "acquireFailures";
  public static final String CLEAR_ACQUIRE_ERRORS = "clearAcquireErrors";
  public static final String ME = MutualExclusionChecker.METRIC;
  public static final String TOKENS = TokenChecker.METRIC;
  public static final String STALE_ACCEPTED = FencedResourceChecker.STALE;
  public static final String FENCED_VIOLATIONS = "fencedViolations";
  public static final String WRITES_ACCEPTED = "writesAccepted";
  public static final String WRITES_REJECTED = "writesRejected";
  public static final String WRITES_UNKNOWN = "writesUnknown";
  public static final String CANARY = CanaryChecker.METRIC;
  public static final String LIST_APPEND_FENCED = "listAppendFencedAnomalies";
  public static final String LIST_APPEND_CANARY = "listAppendCanaryAnomalies";
  public static final String DURABILITY = DurabilityChecker.METRIC;
  public static final String RECOVERY_MILLIS = LivenessChecker.METRIC;
  public static final String INFO_OPS = "infoOps";
  public static final String FAULT_FAILURES = "faultFailures";
  public static final String FAULTS_MISSED = "faultsMissed";
  public static final String SIGNALS = "clientSignals";
  public static final String READMISSIONS = "readmissions";
  public static final String READMISSIONS_BY_HIGH_WATER = "readmissionsByHighWater";
  public static final String POWER_LOSS_BYTES = "powerLossBytes";

  /**
   * Fence counters and high-water marks a power loss was seen to roll back ({@code NodeCounters}).
   */
  public static final String POWER_LOSS_ROLLBACKS = "powerLossCounterRollbacks";

  /** Nodes a power loss cut whose counters could not be read before or after. */
  public static final String POWER_LOSS_UNREAD = "powerLossCountersUnread";

  public static final String EXTENDS = "extends";
  public static final String RENEWED_LEASES = "renewedLeases";
  public static final String STORAGE_RESTARTS = "storageRestarts";

  private static final Pattern LOST_BYTES = Pattern.compile("lost (\\d+) bytes");
  private static final Pattern COUNTERS_UNKNOWN = Pattern.compile("counters unknown");
  private static final Pattern ROLLED_BACK = Pattern.compile("(\\d+) of \\d+ counters rolled back");

  public RunMetrics {
    counts = Map.copyOf(counts);
    verdicts = Map.copyOf(verdicts);
  }

  /** A count; 0 when absent. */
  public long get(String name) {
    return counts.getOrDefault(name, 0L);
  }

  /** A checker's verdict; UNKNOWN when it did not run. */
  public Verdict verdict(String checker) {
    return verdicts.getOrDefault(checker, Verdict.UNKNOWN);
  }

  public long operations() {
    return get(OPERATIONS);
  }

  public long acquisitions() {
    return get(ACQUISITIONS);
  }

  public long acquireFailures() {
    return get(ACQUIRE_FAILURES);
  }

  public long clearAcquireErrors() {
    return get(CLEAR_ACQUIRE_ERRORS);
  }

  public long meViolations() {
    return get(ME);
  }

  public long tokenViolations() {
    return get(TOKENS);
  }

  public long staleWritesAccepted() {
    return get(STALE_ACCEPTED);
  }

  public long fencedViolations() {
    return get(FENCED_VIOLATIONS);
  }

  public long canaryViolations() {
    return get(CANARY);
  }

  public long writesAccepted() {
    return get(WRITES_ACCEPTED);
  }

  public long writesRejected() {
    return get(WRITES_REJECTED);
  }

  /** -1 if no acquire succeeded after the final heal. */
  public long recoveryMillis() {
    return counts.getOrDefault(RECOVERY_MILLIS, -1L);
  }

  public Verdict fenced() {
    return verdict(FencedResourceChecker.NAME);
  }

  public Verdict liveness() {
    return verdict(LivenessChecker.NAME);
  }

  /** Extracts the metrics. */
  public static RunMetrics of(History history, CompositeResult checks) {
    Map<String, Long> c = new TreeMap<>();
    for (CheckResult r : checks.results()) {
      r.metrics().forEach((k, v) -> c.merge(prefixed(r.checker(), k), v, Long::sum));
    }
    c.put(
        FENCED_VIOLATIONS,
        checks.result(FencedResourceChecker.NAME).map(CheckResult::violations).orElse(0L));
    c.put(LIST_APPEND_FENCED, violations(checks, "list-append-fenced"));
    c.put(LIST_APPEND_CANARY, violations(checks, "list-append-canary"));
    c.put(
        RECOVERY_MILLIS,
        checks
            .result(LivenessChecker.NAME)
            .map(r -> r.metrics().getOrDefault(LivenessChecker.METRIC, -1L))
            .orElse(-1L));
    Map<String, Long> own = new TreeMap<>();
    clientOps(history, own);
    nemesisOps(history, own);
    c.putAll(
        own); // counted from the history itself: they replace a checker's count of the same name
    Map<String, Verdict> v = new HashMap<>();
    checks.results().forEach(r -> v.put(r.checker(), r.verdict()));
    return new RunMetrics(c, v);
  }

  /** Checker metrics keep their names, except the list-append ones, which both checkers report. */
  private static String prefixed(String checker, String metric) {
    return checker.startsWith("list-append") ? checker + "." + metric : metric;
  }

  private static long violations(CompositeResult checks, String name) {
    return checks.result(name).map(CheckResult::violations).orElse(0L);
  }

  private static void clientOps(History history, Map<String, Long> c) {
    for (OpPair p : history.pairs()) {
      if (p.process() < 0) {
        continue;
      }
      Fn f = p.invoke().f();
      c.merge(OPERATIONS, 1L, Long::sum);
      OpType outcome = p.outcome();
      if (outcome == OpType.INFO) {
        c.merge(INFO_OPS, 1L, Long::sum);
        c.merge("info." + f.name().toLowerCase(Locale.ROOT), 1L, Long::sum);
      }
      switch (f) {
        case ACQUIRE -> {
          if (outcome == OpType.OK) {
            c.merge(ACQUISITIONS, 1L, Long::sum);
          } else if (outcome == OpType.FAIL) {
            c.merge(ACQUIRE_FAILURES, 1L, Long::sum);
            if (p.completion().stringValue(Fields.ERROR).startsWith("could not acquire")) {
              c.merge(CLEAR_ACQUIRE_ERRORS, 1L, Long::sum);
            }
          }
          if (p.invoke().boolValue(Fields.RENEW)) {
            c.merge(RENEWED_LEASES, 1L, Long::sum);
          }
        }
        case WRITE -> {
          if (outcome == OpType.INFO) {
            c.merge(WRITES_UNKNOWN, 1L, Long::sum);
          }
        }
        case EXTEND -> c.merge(EXTENDS, 1L, Long::sum);
        default -> {
          // counted above
        }
      }
    }
  }

  private static void nemesisOps(History history, Map<String, Long> c) {
    for (Op op : history.ops()) {
      if (op.isInvoke()) {
        continue;
      }
      if (op.process() == Op.NEMESIS && op.f() == Fn.FAULT_START && op.type() == OpType.OK) {
        c.merge("fault." + op.stringValue(Fields.KIND), 1L, Long::sum);
        Matcher m = LOST_BYTES.matcher(op.stringValue(Fields.EFFECT));
        while (m.find()) {
          c.merge(POWER_LOSS_BYTES, Long.parseLong(m.group(1)), Long::sum);
        }
        Matcher back = ROLLED_BACK.matcher(op.stringValue(Fields.EFFECT));
        while (back.find()) {
          c.merge(POWER_LOSS_ROLLBACKS, Long.parseLong(back.group(1)), Long::sum);
        }
        Matcher unread = COUNTERS_UNKNOWN.matcher(op.stringValue(Fields.EFFECT));
        while (unread.find()) {
          c.merge(POWER_LOSS_UNREAD, 1L, Long::sum);
        }
      } else if (op.f() == Fn.SIGNAL) {
        String signal = op.stringValue(Fields.SIGNAL);
        if (signal.equals("STOP") || signal.equals("KILL")) {
          c.merge(SIGNALS, 1L, Long::sum);
          c.merge("signal." + signal + "." + op.stringValue(Fields.POINT), 1L, Long::sum);
        }
      } else if (op.f() == Fn.OBSERVE) {
        observation(op, c);
      }
    }
  }

  private static void observation(Op op, Map<String, Long> c) {
    switch (op.stringValue(Fields.OBSERVED)) {
      case "readmit" -> {
        if ("SET".equals(op.stringValue("outcome"))) {
          c.merge(READMISSIONS, 1L, Long::sum);
          if (op.longValue(Fields.EPOCH, 0) > op.longValue(Fields.WALL_EPOCH, 0)) {
            c.merge(READMISSIONS_BY_HIGH_WATER, 1L, Long::sum);
          }
        }
      }
      case "storage-restart" -> c.merge(STORAGE_RESTARTS, 1L, Long::sum);
      case "node-failure" -> c.merge("nodeFailuresReported", 1L, Long::sum);
      default -> {
        // nothing else is counted
      }
    }
  }

  /** Whether the faults checker saw no failed application. */
  public boolean faultsApplied() {
    return get(FAULT_FAILURES) == 0 && verdicts.containsKey(FaultEffectChecker.NAME);
  }
}
