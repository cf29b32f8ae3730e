package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpType;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class FaultEffectCheckerTest {
  private final FaultEffectChecker checker = new FaultEffectChecker(2, 200, 100);

  private static Histories fault(Histories h, long from, long to, String kind, String targets) {
    return fault(h, from, to, kind, targets, () -> {});
  }

  /** A fault whose window holds what {@code during} records. */
  private static Histories fault(
      Histories h, long from, long to, String kind, String targets, Runnable during) {
    Map<String, Object> v = new HashMap<>();
    v.put(Fields.KIND, kind);
    v.put(Fields.FAULT_ID, 0L);
    v.put(Fields.TARGETS, targets);
    v.put(Fields.FAULT, kind + " on " + targets);
    h.op(from, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_START, v);
    h.op(from, OpType.OK, Op.NEMESIS, Fn.FAULT_START, v);
    during.run();
    h.op(to, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_STOP, v);
    return h.op(to, OpType.OK, Op.NEMESIS, Fn.FAULT_STOP, v);
  }

  private static Histories nodeFailure(Histories h, long at, int client, int node) {
    Map<String, Object> v =
        Map.of(
            Fields.OBSERVED,
            "node-failure",
            Fields.CLIENT,
            (long) client,
            Fields.NODE,
            (long) node);
    h.op(at, OpType.INVOKE, Op.OBSERVER, Fn.OBSERVE, v);
    return h.op(at, OpType.OK, Op.OBSERVER, Fn.OBSERVE, v);
  }

  @Test
  void check_partitionWithFailuresOnItsLinks_true() {
    var h = new Histories();
    fault(h, 0, 50, "partition", "c1>n3");
    nodeFailure(h, 60, 1, 3);

    assertThat(checker.check(h.build()).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_clientClockStep_notAClientFaultToHit() {
    var h = new Histories();
    fault(h, 0, 0, "client-clock", "c0 c1");

    CheckResult r = checker.check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(r.metrics())
        .containsEntry("faultsNotObservable", 1L)
        .containsEntry("clientFaultsNotHit", 0L);
  }

  @Test
  void check_storageKillRestartedAtOnce_notRequiredToShow() {
    var h = new Histories();
    Map<String, Object> v = new HashMap<>();
    v.put(Fields.KIND, "storage-kill");
    v.put(Fields.FAULT_ID, 0L);
    v.put(Fields.TARGETS, "storage");
    v.put(Fields.FAULT, "kill -9 the storage service, restart IMMEDIATE");
    h.op(0, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_START, v);
    h.op(0, OpType.OK, Op.NEMESIS, Fn.FAULT_START, v);
    h.op(50, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_STOP, v);
    h.op(50, OpType.OK, Op.NEMESIS, Fn.FAULT_STOP, v);

    CheckResult r = checker.check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(r.metrics()).containsEntry("faultsNotObservable", 1L);
  }

  @Test
  void check_nodesKilledAndBackAtOnceWithTheirData_notRequiredToShow() {
    CheckResult r = checker.check(nodesKilled("restart AOF_ALWAYS IMMEDIATE").build());

    assertThat(r.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(r.metrics()).containsEntry("faultsNotObservable", 1L);
  }

  @Test
  void check_nodesKilledAndBackAtOnceEmpty_stillRequiredToShow() {
    // an empty node answers without its marker, which the clients report
    CheckResult r = checker.check(nodesKilled("restart NONE IMMEDIATE").build());

    assertThat(r.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(r.metrics()).containsEntry("faultsMissed", 1L);
  }

  @Test
  void check_nodesKilledUntilTheHeal_stillRequiredToShow() {
    CheckResult r = checker.check(nodesKilled("restart AOF_ALWAYS AT_HEAL").build());

    assertThat(r.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(r.metrics()).containsEntry("faultsMissed", 1L);
  }

  /** Node 3 killed from 0 to 50 with {@code restart}, and no client reporting a failure. */
  private static Histories nodesKilled(String restart) {
    var h = new Histories();
    Map<String, Object> v = new HashMap<>();
    v.put(Fields.KIND, "kill-nodes");
    v.put(Fields.FAULT_ID, 0L);
    v.put(Fields.TARGETS, "n3");
    v.put(Fields.FAULT, "kill -9 nodes [3], " + restart);
    h.op(0, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_START, v);
    h.op(0, OpType.OK, Op.NEMESIS, Fn.FAULT_START, v);
    h.op(50, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_STOP, v);
    return h.op(50, OpType.OK, Op.NEMESIS, Fn.FAULT_STOP, v);
  }

  @Test
  void check_storageLinkCutWhileItsClientSentNothing_notRequiredToShow() {
    var h = new Histories();
    fault(h, 0, 50, "partition", "c1>storage");
    h.write(300, 1, 7, OpType.OK); // after the cut and its slack

    CheckResult r = checker.check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(r.metrics()).containsEntry("faultsNotObservable", 1L);
  }

  private static Histories signal(Histories h, long at, int client, String signal) {
    Map<String, Object> v = Map.of(Fields.CLIENT, (long) client, Fields.SIGNAL, signal);
    h.op(at, OpType.INVOKE, Op.TRIGGER, Fn.SIGNAL, v);
    return h.op(at, OpType.OK, Op.TRIGGER, Fn.SIGNAL, v);
  }

  private static Histories write(Histories h, long at, OpType type, int process) {
    Map<String, Object> v = Map.of(Fields.TOKEN, 7L, Fields.OWNER, Histories.owner(process));
    return h.op(at, type, process, Fn.WRITE, v);
  }

  @Test
  void check_storageLinkCutWhileItsClientWasStoppedMidWrite_notRequiredToShow() {
    // Seen in a campaign: client 1 stopped after its fence (its write open), its storage link cut
    // and healed while it was stopped; it sent nothing through the cut link.
    var h = new Histories();
    write(h, 10, OpType.INVOKE, 1);
    signal(h, 20, 1, "STOP");
    fault(h, 100, 150, "blackhole", "c1>storage");
    signal(h, 400, 1, "CONT");
    write(h, 410, OpType.OK, 1);

    CheckResult r = checker.check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(r.metrics()).containsEntry("faultsNotObservable", 1L);
  }

  @Test
  void check_storageLinkCutWhileItsClientWasStoppedOnlyPartly_falseMissed() {
    var h = new Histories();
    write(h, 10, OpType.INVOKE, 1);
    signal(h, 20, 1, "STOP");
    // Continued inside the cut: its write could have gone through the cut link.
    fault(h, 100, 150, "blackhole", "c1>storage", () -> signal(h, 120, 1, "CONT"));
    write(h, 410, OpType.OK, 1);

    assertThat(checker.check(h.build()).verdict()).isEqualTo(Verdict.FALSE);
  }

  @Test
  void check_storageLinkCutHealedBeforeItsClientWrote_notRequiredToShow() {
    var h = new Histories();
    fault(h, 0, 10, "partition", "c1>storage");
    h.write(20, 1, 7, OpType.OK); // inside the slack, but through the healed link

    CheckResult r = checker.check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(r.metrics()).containsEntry("faultsNotObservable", 1L);
  }

  @Test
  void check_storageLinkCutWhileItsClientWroteWithoutError_falseMissed() {
    var h = new Histories();
    fault(h, 0, 50, "partition", "c1>storage", () -> h.write(20, 1, 7, OpType.OK));

    assertThat(checker.check(h.build()).verdict()).isEqualTo(Verdict.FALSE);
  }

  @Test
  void check_partitionWithoutFailures_falseMissed() {
    var h = new Histories();
    fault(h, 0, 50, "partition", "c1>n3");
    nodeFailure(h, 60, 0, 3); // another client's link

    CheckResult r = checker.check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(r.metrics()).containsEntry("faultsMissed", 1L);
  }

  @Test
  void check_latencyBelowTheNodeTimeout_notRequiredToBite() {
    var h = new Histories();
    Map<String, Object> v = new HashMap<>();
    v.put(Fields.KIND, "latency");
    v.put(Fields.FAULT_ID, 0L);
    v.put(Fields.TARGETS, "c0>n1");
    v.put(Fields.LATENCY_MILLIS, 50L);
    h.op(0, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_START, v);
    h.op(0, OpType.OK, Op.NEMESIS, Fn.FAULT_START, v);

    CheckResult r = checker.check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(r.metrics()).containsEntry("faultsNotObservable", 1L);
  }

  @Test
  void check_faultFailedToApply_false() {
    var h = new Histories();
    h.op(0, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_START, Map.of(Fields.FAULT, "x"));
    h.op(1, OpType.INFO, Op.NEMESIS, Fn.FAULT_START, Map.of(Fields.FAULT, "x", Fields.ERROR, "no"));

    CheckResult r = checker.check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(r.metrics()).containsEntry("faultFailures", 1L);
  }
}
