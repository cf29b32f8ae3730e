package io.fencedlock.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counters of one schedule, or of a campaign when added up: what ran, which faults were exercised,
 * how many invariant checks were made. Plain fields: one thread writes them.
 */
final class Stats {
  long schedules;
  long steps;
  long simulatedNanos;
  long requests;
  long requestsLost;
  long requestsLostToRestart;
  long repliesLost;
  long slowMessages;
  long timeouts;
  long nodePauses;
  long crashesWithMemory;
  long crashesWithoutMemory;
  long clockStepsForward;
  long clockStepsBack;
  long clientPauses;
  long clientCloses;
  long cancels;
  long linkCuts;
  long throwingSinks;
  long calls;
  long leases;
  long extends_;
  long works;
  long worksTold;
  long releases;
  long announcements;

  /** Releases on a lock's lead node that named a waiting client (release.lua's naming form). */
  long waitersNamed;

  long readmissions;
  long checks;

  void add(Stats o) {
    schedules += o.schedules;
    steps += o.steps;
    simulatedNanos += o.simulatedNanos;
    requests += o.requests;
    requestsLost += o.requestsLost;
    requestsLostToRestart += o.requestsLostToRestart;
    repliesLost += o.repliesLost;
    slowMessages += o.slowMessages;
    timeouts += o.timeouts;
    nodePauses += o.nodePauses;
    crashesWithMemory += o.crashesWithMemory;
    crashesWithoutMemory += o.crashesWithoutMemory;
    clockStepsForward += o.clockStepsForward;
    clockStepsBack += o.clockStepsBack;
    clientPauses += o.clientPauses;
    clientCloses += o.clientCloses;
    cancels += o.cancels;
    linkCuts += o.linkCuts;
    throwingSinks += o.throwingSinks;
    calls += o.calls;
    leases += o.leases;
    extends_ += o.extends_;
    works += o.works;
    worksTold += o.worksTold;
    releases += o.releases;
    announcements += o.announcements;
    waitersNamed += o.waitersNamed;
    readmissions += o.readmissions;
    checks += o.checks;
  }

  /** The faults exercised, by kind, in a fixed order. */
  Map<String, Long> faults() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("node pause", nodePauses);
    m.put("crash, memory kept", crashesWithMemory);
    m.put("crash, memory lost", crashesWithoutMemory);
    m.put("node clock step forward", clockStepsForward);
    m.put("node clock step back", clockStepsBack);
    m.put("client pause", clientPauses);
    m.put("client close", clientCloses);
    m.put("cancel of a call", cancels);
    m.put("link cut", linkCuts);
    m.put("metrics sink throws", throwingSinks);
    m.put("request lost", requestsLost);
    m.put("request lost to a restart", requestsLostToRestart);
    m.put("reply lost (request ran)", repliesLost);
    m.put("message slower than the node timeout", slowMessages);
    m.put("node timeout fired", timeouts);
    return m;
  }

  /** What the clients did. */
  Map<String, Long> work() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("public calls", calls);
    m.put("leases granted", leases);
    m.put("extends", extends_);
    m.put("withLock works run", works);
    m.put("works told their lease was lost", worksTold);
    m.put("releases", releases);
    m.put("node requests", requests);
    m.put("release announcements delivered", announcements);
    m.put("waiters named by a lead node", waitersNamed);
    m.put("nodes re-admitted", readmissions);
    return m;
  }
}
