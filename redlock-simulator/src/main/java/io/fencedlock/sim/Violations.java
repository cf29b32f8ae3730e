package io.fencedlock.sim;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The violations of one run: the first of each kind (later ones of a kind add nothing new). */
final class Violations {
  private final List<Violation> found = new ArrayList<>();
  private final Set<Violation.Kind> kinds = EnumSet.noneOf(Violation.Kind.class);
  private final EventLoop loop;
  private final Trace trace;

  Violations(EventLoop loop, Trace trace) {
    this.loop = loop;
    this.trace = trace;
  }

  void add(Violation.Kind kind, String detail) {
    if (kinds.add(kind)) {
      Violation v = new Violation(kind, loop.now(), detail);
      found.add(v);
      trace.note(loop.now(), "VIOLATION " + v);
    }
  }

  boolean any() {
    return !found.isEmpty();
  }

  List<Violation> list() {
    return List.copyOf(found);
  }
}
