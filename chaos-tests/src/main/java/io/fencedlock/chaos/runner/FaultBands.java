package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Draws the faults of a history as shaded bands with labels in lanes above the rows. Stateless. */
final class FaultBands {
  private FaultBands() {}

  private record Band(long start, long end, String kind, String label) {}

  /** How many label lanes the faults of this history need. */
  static int lanes(History history, Scale x) {
    return layout(bands(history), x).lanes();
  }

  private record Layout(List<Integer> laneOf, int lanes) {}

  private static Layout layout(List<Band> bands, Scale x) {
    List<Double> laneEnds = new ArrayList<>();
    List<Integer> laneOf = new ArrayList<>();
    for (Band b : bands) {
      double x1 = x.at(b.start());
      double labelEnd = x1 + Math.max(x.at(b.end()) - x1, shown(b).length() * 5.8 + 4);
      int l = 0;
      while (l < laneEnds.size() && laneEnds.get(l) > x1) {
        l++;
      }
      if (l == laneEnds.size()) {
        laneEnds.add(labelEnd);
      } else {
        laneEnds.set(l, labelEnd);
      }
      laneOf.add(l);
    }
    return new Layout(laneOf, Math.max(1, laneEnds.size()));
  }

  /** Draws the bands over rows that start below the label lanes. */
  static void draw(Svg svg, History history, Scale x, double top, double rowsHeight, double lane) {
    List<Band> bands = bands(history);
    Layout layout = layout(bands, x);
    List<Integer> laneOf = layout.laneOf();
    double rowsTop = top + layout.lanes() * lane + 6;
    for (int i = 0; i < bands.size(); i++) {
      Band b = bands.get(i);
      double x1 = x.at(b.start());
      double w = x.at(b.end()) - x1;
      String color = color(b.kind());
      double labelY = top + laneOf.get(i) * lane + 11;
      if (b.end() - b.start() < 2_000_000) { // instantaneous (clock step, heal): a line
        svg.line(
            x1,
            labelY + 3,
            x1,
            rowsTop + rowsHeight,
            "stroke:" + color + ";stroke-width:2;stroke-dasharray:4,2");
        svg.rect(
            x1 - 3,
            labelY - 9,
            6,
            12,
            "fill:" + color,
            b.label()); // hover target with the full description
      } else {
        svg.rect(x1, rowsTop, w, rowsHeight, "fill:" + color + ";fill-opacity:0.22", b.label());
        svg.rect(x1, labelY - 9, w, 12, "fill:" + color + ";fill-opacity:0.5", b.label());
      }
      svg.text(x1 + 2, labelY, shown(b), "font-size:10px");
    }
  }

  /**
   * The text drawn for a band: instantaneous faults get a short label (full text on hover) so they
   * fit.
   */
  private static String shown(Band b) {
    if (b.end() - b.start() >= 2_000_000 || b.kind().equals("heal")) {
      return b.label();
    }
    int open = b.label().indexOf('[');
    String nodes =
        open < 0
            ? ""
            : b.label().substring(open, b.label().indexOf(']', open) + 1).replace(" ", "");
    return (b.kind().equals("clock-step") ? "clock n" : b.kind() + " n") + nodes;
  }

  private static List<Band> bands(History history) {
    Map<Long, Op> started = new HashMap<>();
    List<Band> bands = new ArrayList<>();
    for (Op op : history.ops(o -> o.process() == Op.NEMESIS && o.type() != OpType.INVOKE)) {
      if (op.boolValue(Fields.FINAL_HEAL)) {
        bands.add(new Band(op.timeNanos(), op.timeNanos(), "heal", "final heal"));
      } else if (op.f() == Fn.FAULT_START) {
        started.put(op.longValue(Fields.FAULT_ID, -1), op);
      } else {
        Op s = started.remove(op.longValue(Fields.FAULT_ID, -1));
        if (s != null) {
          String failed = s.type() == OpType.INFO ? " (apply failed)" : "";
          bands.add(
              new Band(
                  s.timeNanos(),
                  op.timeNanos(),
                  s.stringValue(Fields.KIND),
                  s.stringValue(Fields.FAULT) + failed));
        }
      }
    }
    long end = history.ops().isEmpty() ? 0 : history.ops().get(history.size() - 1).timeNanos();
    started
        .values()
        .forEach(
            s ->
                bands.add(
                    new Band(
                        s.timeNanos(),
                        end,
                        s.stringValue(Fields.KIND),
                        s.stringValue(Fields.FAULT))));
    bands.sort(java.util.Comparator.comparingLong(Band::start));
    return bands;
  }

  private static String color(String kind) {
    return switch (kind) {
      case "partition", "blackhole" -> "#8e44ad";
      case "latency", "reset-peer" -> "#2980b9";
      case "pause-nodes" -> "#c0392b";
      case "kill-nodes" -> "#7f0000";
      case "clock-step" -> "#d35400";
      case "client-pause" -> "#f39c12";
      case "heal" -> "#27ae60";
      default -> "#555";
    };
  }
}
