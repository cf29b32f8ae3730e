package io.fencedlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * One scenario's latency-by-percentile chart as inline SVG, in the style of HdrHistogram's plotter:
 * the x axis is log(1 / (1 − percentile)) so that the tail gets as much room as the median, the y
 * axis is logarithmic so that systems ten times apart stay readable.
 */
final class PercentilePlot {
  /** One colour per system, the same in every plot. */
  private static final Map<String, String> COLORS =
      Map.ofEntries(
          Map.entry(Systems.FLOOR_RAW, "#8c564b"),
          Map.entry(Systems.FLOOR_RAW_CAD, "#c49c94"),
          Map.entry(Systems.FLOOR_RAW_FENCED, "#e377c2"),
          Map.entry(Systems.FLOOR_1, "#7f7f7f"),
          Map.entry(Systems.FLOOR_N, "#17becf"),
          Map.entry(Systems.FLOOR_N_AGAIN, "#9edae5"),
          Map.entry(Systems.FLOOR_N_CAD, "#bcbd22"),
          Map.entry(Systems.UNFENCED, "#2ca02c"),
          Map.entry(Systems.FENCED, "#1f77b4"),
          Map.entry(Systems.FENCED_SEPARATE, "#aec7e8"),
          Map.entry(Systems.REDISSON_REDLOCK, "#d62728"),
          Map.entry(Systems.REDISSON_FENCED, "#ff7f0e"));

  private static final int WIDTH = 900;
  private static final int HEIGHT = 420;
  private static final int LEFT = 70;
  private static final int RIGHT = 190;
  private static final int TOP = 20;
  private static final int BOTTOM = 50;

  /** Up to 99.999 %. */
  private static final double MAX_NINES = 5;

  private final double minLog;
  private final double maxLog;
  private final StringBuilder svg = new StringBuilder();

  private PercentilePlot(double minMicros, double maxMicros) {
    this.minLog = Math.floor(Math.log10(Math.max(minMicros, 1)));
    this.maxLog = Math.ceil(Math.log10(Math.max(maxMicros, 10)));
  }

  /** An SVG element for the merged histograms of one scenario's systems. */
  static String render(ScenarioResult scenario) {
    List<SystemResult> systems = scenario.systems();
    double min =
        systems.stream().mapToDouble(s -> s.merged().getMinNonZeroValue() / 1e3).min().orElse(1);
    double max = systems.stream().mapToDouble(s -> s.merged().getMaxValue() / 1e3).max().orElse(10);
    PercentilePlot plot = new PercentilePlot(min, max);
    plot.svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"12\">%n",
            WIDTH,
            HEIGHT));
    plot.axes();
    for (int i = 0; i < systems.size(); i++) {
      plot.line(systems.get(i), COLORS.getOrDefault(systems.get(i).system(), "#000000"), i);
    }
    plot.svg.append("</svg>\n");
    return plot.svg.toString();
  }

  private double x(double percentile) {
    double nines = Math.min(MAX_NINES, Math.log10(1 / (1 - percentile / 100)));
    return LEFT + nines / MAX_NINES * (WIDTH - LEFT - RIGHT);
  }

  private double y(double micros) {
    double log = Math.log10(Math.max(micros, Math.pow(10, minLog)));
    return TOP + (1 - (log - minLog) / (maxLog - minLog)) * (HEIGHT - TOP - BOTTOM);
  }

  private void axes() {
    String[] labels = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"};
    for (int n = 0; n <= MAX_NINES; n++) {
      double px = LEFT + n / MAX_NINES * (WIDTH - LEFT - RIGHT);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                  + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
              px,
              TOP,
              px,
              HEIGHT - BOTTOM,
              px,
              HEIGHT - BOTTOM + 18,
              labels[n]));
    }
    for (double e = minLog; e <= maxLog; e++) {
      double py = y(Math.pow(10, e));
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
              LEFT,
              py,
              WIDTH - RIGHT,
              py,
              LEFT - 6,
              py + 4,
              micros(Math.pow(10, e))));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">percentile</text>%n<text x=\"14\""
                + " y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">latency"
                + " (log)</text>%n",
            (LEFT + WIDTH - RIGHT) / 2,
            HEIGHT - 8,
            HEIGHT / 2,
            HEIGHT / 2));
  }

  private static String micros(double us) {
    return us >= 1000
        ? String.format(Locale.ROOT, "%.0f ms", us / 1000)
        : String.format(Locale.ROOT, "%.0f µs", us);
  }

  private void line(SystemResult system, String color, int index) {
    List<String> points = new ArrayList<>();
    Histogram h = system.merged();
    if (h.getTotalCount() > 0) {
      for (HistogramIterationValue v : h.percentiles(5)) {
        if (v.getPercentileLevelIteratedTo() >= 100) {
          break;
        }
        points.add(
            String.format(
                Locale.ROOT,
                "%.1f,%.1f",
                x(v.getPercentileLevelIteratedTo()),
                y(v.getValueIteratedTo() / 1e3)));
      }
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n",
            color,
            String.join(" ", points)));
    int ly = TOP + 10 + index * 20;
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>"
                + "<text x=\"%d\" y=\"%d\">%s</text>%n",
            WIDTH - RIGHT + 10,
            ly,
            WIDTH - RIGHT + 30,
            ly,
            color,
            WIDTH - RIGHT + 36,
            ly + 4,
            system.system()));
  }
}
