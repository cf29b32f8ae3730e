package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.checker.Hold;
import io.fencedlock.chaos.checker.Holds;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpPair;
import io.fencedlock.chaos.history.OpType;

/**
 * Renders a run as an HTML page with an SVG timeline: one row per client with its lock holds as
 * bars labelled with their tokens, stalls, accepted and rejected writes and canary lost updates;
 * faults as shaded bands across all rows. Hover any mark for details. Stateless; thread-safe.
 */
final class TimelineHtml {
  static final double LEFT = 90;
  static final double WIDTH = 1360;
  static final double TOP = 70;
  static final double ROW = 64;
  static final double FAULT_LANE = 16;

  private TimelineHtml() {}

  static String render(RunReport report, History history) {
    int clients = report.experiment().workload().clients();
    long end =
        Math.max(
            1, history.ops().isEmpty() ? 1 : history.ops().get(history.size() - 1).timeNanos());
    Scale x = new Scale(LEFT, WIDTH - 20, end);
    Svg svg = new Svg();
    double rowsTop = TOP + FaultBands.lanes(history, x) * FAULT_LANE + 6;
    drawRows(svg, clients, rowsTop, x);
    FaultBands.draw(svg, history, x, TOP, clients * ROW, FAULT_LANE);
    drawHolds(svg, history, clients, rowsTop, x);
    drawClientOps(svg, history, clients, rowsTop, x, lostCanaryEntries(history));
    drawSignals(svg, history, clients, rowsTop, x);
    double bottom = rowsTop + clients * ROW;
    x.axis(svg, bottom);
    Legend.draw(svg, bottom + 34);
    return page(report, svg.build(WIDTH, bottom + 70));
  }

  private static void drawRows(Svg svg, int clients, double top, Scale x) {
    for (int c = 0; c < clients; c++) {
      double y = top + c * ROW;
      svg.rect(
          x.left(),
          y,
          x.right() - x.left(),
          ROW - 4,
          c % 2 == 0 ? "fill:#f7f7f7" : "fill:#efefef",
          null);
      svg.text(8, y + ROW / 2, "client " + c, "font-weight:bold");
    }
  }

  private static void drawHolds(Svg svg, History history, int clients, double top, Scale x) {
    for (Hold h : Holds.of(history)) {
      double y = top + (h.process() % clients) * ROW + 8;
      double x1 = x.at(h.startNanos());
      double w = x.at(Math.min(h.endNanos(), x.end())) - x1;
      svg.rect(
          x1,
          y,
          w,
          18,
          "fill:#4a7fd6;stroke:#1d3f7a;stroke-width:0.5",
          String.format(
              "token %d, process %d, held %.0f ms",
              h.token(), h.process(), (h.endNanos() - h.startNanos()) / 1e6));
      // Tokens start from an epoch (microseconds), so the bar shows the digits that change.
      String label = "…" + String.format("%05d", h.token() % 100_000);
      if (w > label.length() * 6.5 + 2) {
        svg.text(x1 + 2, y + 13, label, "fill:white;font-size:10px");
      }
    }
  }

  /** Canary entries acknowledged but missing from their resource's final canary value. */
  private static java.util.Set<String> lostCanaryEntries(History history) {
    java.util.Set<String> present = new java.util.HashSet<>();
    for (OpPair r : history.pairs(io.fencedlock.chaos.history.Fn.READ)) {
      if (r.isOk()) {
        present.addAll(
            io.fencedlock.chaos.history.Entries.parse(r.completion().stringValue(Fields.CANARY)));
      }
    }
    java.util.Set<String> lost = new java.util.HashSet<>();
    for (OpPair w : history.pairs(io.fencedlock.chaos.history.Fn.CANARY)) {
      String e = w.invoke().stringValue(Fields.ENTRY);
      if (w.isOk() && !present.contains(e)) {
        lost.add(e);
      }
    }
    return lost;
  }

  /** Pauses (from SIGSTOP to SIGCONT) as bars, kills as crosses, on their client's row. */
  private static void drawSignals(Svg svg, History history, int clients, double top, Scale x) {
    java.util.Map<Long, Op> stopped = new java.util.HashMap<>();
    for (Op op : history.ops()) {
      if (op.f() != io.fencedlock.chaos.history.Fn.SIGNAL || op.isInvoke()) {
        continue;
      }
      double rowY = top + (op.longValue(Fields.CLIENT, 0) % clients) * ROW;
      String signal = op.stringValue(Fields.SIGNAL);
      String where = op.stringValue(Fields.POINT);
      if (signal.equals("STOP")) {
        stopped.put(op.longValue(Fields.CLIENT, 0), op);
      } else if (signal.equals("CONT")) {
        Op s = stopped.remove(op.longValue(Fields.CLIENT, 0));
        if (s != null) {
          svg.rect(
              x.at(s.timeNanos()),
              rowY + 28,
              x.at(op.timeNanos()) - x.at(s.timeNanos()),
              8,
              "fill:#f0a030",
              String.format(
                  "SIGSTOP at %s for %.0f ms (pid %d)",
                  where, (op.timeNanos() - s.timeNanos()) / 1e6, op.longValue("pid", 0)));
        }
      } else if (signal.equals("KILL")) {
        svg.cross(
            x.at(op.timeNanos()),
            rowY + 32,
            6,
            "#7a1d8f",
            "SIGKILL at " + where + " (pid " + op.longValue("pid", 0) + ")");
      }
    }
  }

  private static void drawClientOps(
      Svg svg,
      History history,
      int clients,
      double top,
      Scale x,
      java.util.Set<String> lostCanary) {
    for (OpPair p : history.pairs()) {
      if (p.process() < 0 || p.completion() == null) {
        continue;
      }
      double rowY = top + (p.process() % clients) * ROW;
      double cx = x.at(p.completion().timeNanos());
      long token = p.invoke().longValue(Fields.TOKEN, -1);
      switch (p.invoke().f()) {
        case WRITE -> drawWrite(svg, p, cx, rowY + 46, token);
        case CANARY -> {
          if (lostCanary.contains(p.invoke().stringValue(Fields.ENTRY))) {
            svg.triangle(
                cx + 9,
                rowY + 46,
                6,
                "fill:#ff7f00;stroke:#7a3d00",
                "canary LOST UPDATE: the write of token " + token + " was overwritten unseen");
          }
        }
        case ACQUIRE -> {
          if (p.outcome() != OpType.OK) {
            svg.line(cx, rowY + 52, cx, rowY + 58, "stroke:#888;stroke-width:1");
          }
        }
        default -> {
          // releases and reads carry nothing worth a mark; holds are drawn from acquires
        }
      }
    }
  }

  private static void drawWrite(Svg svg, OpPair p, double cx, double y, long token) {
    if (p.outcome() == OpType.OK) {
      svg.circle(cx, y, 4, "fill:#2a9d3a", "fenced write accepted, token " + token);
    } else if (p.outcome() == OpType.FAIL) {
      svg.cross(
          cx,
          y,
          5,
          "#d62828",
          "fenced write REJECTED, token "
              + token
              + " < current "
              + p.completion().longValue(Fields.CURRENT_TOKEN, -1));
    } else {
      svg.circle(
          cx,
          y,
          4,
          "fill:#999",
          "fenced write outcome unknown, token "
              + token
              + ": "
              + p.completion().stringValue(Fields.ERROR));
    }
  }

  private static String page(RunReport r, String svg) {
    RunMetrics m = r.metrics();
    String summary =
        String.format(
            "seed %d &middot; nodes on %s &middot; %d ops &middot; %d acquisitions &middot; ME"
                + " violations %d &middot; token violations %d &middot; stale writes accepted %d"
                + " &middot; writes rejected %d &middot; canary lost updates %d",
            r.seed(),
            r.backend() == io.fencedlock.testkit.Backend.CONTAINER ? "containers" : "processes",
            m.operations(),
            m.acquisitions(),
            m.meViolations(),
            m.tokenViolations(),
            m.staleWritesAccepted(),
            m.writesRejected(),
            m.canaryViolations());
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
        + Svg.escape(r.experiment().name())
        + "</title></head>\n"
        + "<body style=\"font-family:sans-serif;margin:12px\">\n"
        + "<h2 style=\"margin:4px 0\">"
        + Svg.escape(r.experiment().name())
        + " &mdash; <span style=\"color:"
        + (r.passed() ? "#2a9d3a" : "#d62828")
        + "\">"
        + r.verdict()
        + "</span></h2>\n<div>"
        + Svg.escape(r.experiment().expectation())
        + "</div>\n<div style=\"color:#555\">"
        + summary
        + "</div>\n"
        + "<div style=\"color:#555\">Lock bars show the last 5 digits of their token; hover any"
        + " mark or band for details. Replay: <code>"
        + Svg.escape(r.replayCommand())
        + "</code> or <code>"
        + Svg.escape(r.seedCommand())
        + "</code></div>\n"
        + svg
        + "</body></html>\n";
  }
}
