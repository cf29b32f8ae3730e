package io.fencedlock.cli.demo;

import io.fencedlock.cli.demo.TimelineEvent.Acquired;
import io.fencedlock.cli.demo.TimelineEvent.PauseBegan;
import io.fencedlock.cli.demo.TimelineEvent.PauseEnded;
import io.fencedlock.cli.demo.TimelineEvent.Released;
import io.fencedlock.cli.demo.TimelineEvent.Wrote;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Draws one demo run as an SVG timeline, in the chaos timeline's visual language: one row per
 * client, lease bars labelled with their token (dashed where the client only believes it still
 * holds the lock), a pause as a shaded band, accepted writes as green ticks and rejected writes as
 * red crosses, with a time axis in milliseconds.
 *
 * <p>Stateless and thread-safe.
 */
final class SvgTimeline {
  static final int WIDTH = 960;
  private static final int LEFT = 90;
  private static final int RIGHT = 24;
  private static final int TOP = 16;
  private static final int ROW_HEIGHT = 76;
  private static final double CHAR_WIDTH = 6.6; // of the 12 px sans-serif labels, roughly
  // The chaos timeline's palette, so both read the same way.
  private static final String LEASE_BLUE = "#4a7fd6";
  private static final String GREEN = "#2a9d3a";
  private static final String RED = "#d62828";
  private static final String AMBER = "#ff7f00";

  /** A white outline behind label text, so it stays legible over the pause band's hatching. */
  private static final String HALO =
      " paint-order=\"stroke\" stroke=\"white\" stroke-width=\"3\" stroke-linejoin=\"round\"";

  private static final List<String> ROWS =
      List.of(KleppmannScenario.CLIENT_1, KleppmannScenario.CLIENT_2);

  private final RunResult run;
  private final String idPrefix;
  private final long endMillis;
  private final StringBuilder svg = new StringBuilder();

  private SvgTimeline(RunResult run) {
    this.run = run;
    this.idPrefix = "t-" + run.mode().label();
    this.endMillis = roundUp(lastMillis(run), 500);
  }

  /** The run's timeline as a standalone {@code <svg>} element. */
  static String render(RunResult run) {
    return new SvgTimeline(run).draw();
  }

  private String draw() {
    int height = TOP + ROWS.size() * ROW_HEIGHT + 64;
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"%d\""
                + " height=\"%d\" style=\"max-width:100%%;height:auto\" viewBox=\"0 0 %d %d\""
                + " font-family=\"sans-serif\" font-size=\"12\">%n",
            WIDTH,
            height,
            WIDTH,
            height));
    svg.append("<defs><pattern id=\"")
        .append(idPrefix)
        .append(
            "-hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\""
                + " patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\""
                + " fill=\"#fde9c8\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#f0a030\""
                + " stroke-width=\"3\"/></pattern></defs>\n");
    for (int row = 0; row < ROWS.size(); row++) {
      drawRow(ROWS.get(row), TOP + row * ROW_HEIGHT);
    }
    drawAxis(TOP + ROWS.size() * ROW_HEIGHT);
    drawLegend(TOP + ROWS.size() * ROW_HEIGHT + 44);
    return svg.append("</svg>\n").toString();
  }

  private void drawRow(String client, int top) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<g class=\"row\" data-client=\"%s\">%n<rect x=\"%d\" y=\"%d\" width=\"%d\""
                + " height=\"%d\" fill=\"%s\"/>%n<text x=\"8\" y=\"%d\""
                + " font-weight=\"bold\">%s</text>%n",
            Xml.escape(client),
            LEFT,
            top,
            WIDTH - LEFT - RIGHT,
            ROW_HEIGHT - 4,
            client.equals(KleppmannScenario.CLIENT_1) ? "#fafafa" : "#f5f5f5",
            top + 36,
            Xml.escape(client)));
    drawPauses(client, top);
    drawLeases(client, top);
    drawWrites(client, top);
    svg.append("</g>\n");
  }

  private void drawPauses(String client, int top) {
    for (TimelineEvent event : run.events()) {
      if (event instanceof PauseBegan began && began.actor().equals(client)) {
        long end = endOf(client, PauseEnded.class).orElse(endMillis);
        rect(
            "pause",
            began.atMillis(),
            end,
            top,
            ROW_HEIGHT - 4,
            "fill=\"url(#" + idPrefix + "-hatch)\" opacity=\"0.9\"");
        text(x(began.atMillis()) + 4, top + 12, "GC pause (simulated)", "fill=\"#8a5a00\"" + HALO);
      }
    }
  }

  private void drawLeases(String client, int top) {
    for (TimelineEvent event : run.events()) {
      if (event instanceof Acquired lease && lease.actor().equals(client)) {
        Optional<Released> release = release(run, client);
        long validEnd = validEnd(lease, release);
        rect(
            "lease",
            lease.atMillis(),
            validEnd,
            top + 18,
            20,
            "fill=\"" + LEASE_BLUE + "\" stroke=\"#1d3f7a\"");
        if (release.isPresent() && release.get().atMillis() > validEnd) {
          rect(
              "stale-belief",
              validEnd,
              release.get().atMillis(),
              top + 18,
              20,
              "fill=\"none\" stroke=\"#1d3f7a\" stroke-dasharray=\"4 3\"");
        }
        String label =
            lease.token().isPresent()
                ? "lease, token " + lease.token().getAsLong()
                : "lease (unfenced, no token)";
        // A label that does not fit in its bar goes right after it.
        boolean fits = x(validEnd) - x(lease.atMillis()) > label.length() * CHAR_WIDTH + 8;
        double labelX = fits ? x(lease.atMillis()) + 4 : x(validEnd) + 4;
        text(labelX, top + 32, label, fits ? "fill=\"white\"" : "fill=\"#1d3f7a\"" + HALO);
      }
    }
  }

  /** Where the lease stops being valid: its release while valid, else its validity's end. */
  private static long validEnd(Acquired lease, Optional<Released> release) {
    return release
        .filter(Released::wasValid)
        .map(Released::atMillis)
        .orElse(lease.validUntilMillis());
  }

  private void drawWrites(String client, int top) {
    for (TimelineEvent event : run.events()) {
      if (event instanceof Wrote write && write.actor().equals(client)) {
        boolean stale = write.atMillis() > leaseEnd(client);
        String kind = !write.accepted() ? "rejected" : stale ? "stale-accepted" : "accepted";
        String color = !write.accepted() ? RED : stale ? AMBER : GREEN;
        double cx = x(write.atMillis());
        int cy = top + 56;
        svg.append(
            String.format(
                Locale.ROOT,
                "<g class=\"write %s\"><title>%s</title>"
                    + "<circle cx=\"%.1f\" cy=\"%d\" r=\"8\" fill=\"%s\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"white\""
                    + " font-weight=\"bold\">%s</text></g>%n",
                kind,
                Xml.escape(write.describe()),
                cx,
                cy,
                color,
                cx,
                cy + 4,
                write.accepted() ? "\u2713" : "\u2717"));
        boolean nearEnd = cx > WIDTH * 0.6;
        text(
            nearEnd ? cx - 12 : cx + 12,
            cy + 4,
            writeLabel(write, stale),
            "fill=\"" + color + "\"" + HALO + (nearEnd ? " text-anchor=\"end\"" : ""));
      }
    }
  }

  private static String writeLabel(Wrote write, boolean stale) {
    String token = write.token().isPresent() ? " with token " + write.token().getAsLong() : "";
    if (!write.accepted()) {
      return "stale write" + token + ": rejected, 409";
    }
    return stale
        ? "stale write" + token + ": accepted, overwrites the newer value"
        : "write" + token + ": accepted";
  }

  /** When the client's lease stopped being valid, or the end of the chart if it had none. */
  private long leaseEnd(String client) {
    return run.events().stream()
        .filter(e -> e instanceof Acquired && e.actor().equals(client))
        .map(Acquired.class::cast)
        .mapToLong(lease -> validEnd(lease, release(run, client)))
        .max()
        .orElse(endMillis);
  }

  private void drawAxis(int top) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#424242\"/>%n",
            LEFT,
            top,
            WIDTH - RIGHT,
            top));
    long step = endMillis > 6000 ? 1000 : 500;
    for (long t = 0; t <= endMillis; t += step) {
      double tx = x(t);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#424242\"/>%n",
              tx,
              top,
              tx,
              top + 5));
      text(tx, top + 18, t + " ms", "text-anchor=\"middle\" fill=\"#424242\"");
    }
  }

  private void drawLegend(int y) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<g class=\"legend\"><rect x=\"%d\" y=\"%d\" width=\"24\" height=\"12\""
                + " fill=\"#4a7fd6\" stroke=\"#1d3f7a\"/><rect x=\"%d\" y=\"%d\" width=\"24\""
                + " height=\"12\" fill=\"none\" stroke=\"#1d3f7a\" stroke-dasharray=\"4 3\"/><rect"
                + " x=\"%d\" y=\"%d\" width=\"24\" height=\"12\" fill=\"url(#%s-hatch)\"/><circle"
                + " cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"%s\"/><circle cx=\"%d\" cy=\"%d\" r=\"6\""
                + " fill=\"%s\"/><circle cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"%s\"/></g>%n",
            LEFT,
            y - 10,
            LEFT + 130,
            y - 10,
            LEFT + 345,
            y - 10,
            idPrefix,
            LEFT + 476,
            y - 4,
            GREEN,
            LEFT + 591,
            y - 4,
            RED,
            LEFT + 706,
            y - 4,
            AMBER));
    text(LEFT + 30, y, "valid lease", "");
    text(LEFT + 160, y, "expired, still believed held", "");
    text(LEFT + 375, y, "paused (GC)", "");
    text(LEFT + 488, y, "write accepted", "");
    text(LEFT + 603, y, "write rejected", "");
    text(LEFT + 718, y, "stale write accepted", "");
  }

  private void rect(String cssClass, long from, long to, int y, int height, String style) {
    double x0 = x(from);
    double width = Math.max(1, x(to) - x0);
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect class=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" %s/>%n",
            cssClass,
            x0,
            y,
            width,
            height,
            style));
  }

  private void text(double x, int y, String content, String attributes) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" %s>%s</text>%n",
            x,
            y,
            attributes,
            Xml.escape(content)));
  }

  private double x(long millis) {
    return LEFT + (WIDTH - LEFT - RIGHT) * (double) millis / endMillis;
  }

  private Optional<Long> endOf(String client, Class<? extends TimelineEvent> type) {
    return run.events().stream()
        .filter(e -> type.isInstance(e) && e.actor().equals(client))
        .map(TimelineEvent::atMillis)
        .findFirst();
  }

  private static Optional<Released> release(RunResult run, String client) {
    return run.events().stream()
        .filter(e -> e instanceof Released && e.actor().equals(client))
        .map(Released.class::cast)
        .findFirst();
  }

  private static long lastMillis(RunResult run) {
    long last = 1;
    for (TimelineEvent event : run.events()) {
      last = Math.max(last, event.atMillis());
      if (event instanceof Acquired lease) {
        last = Math.max(last, validEnd(lease, release(run, lease.actor())));
      }
    }
    // Room on the right for the labels of the last writes.
    return last + last / 8;
  }

  private static long roundUp(long value, long step) {
    return (value + step - 1) / step * step;
  }
}
