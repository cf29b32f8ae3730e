package io.fencedlock.chaos.runner;

/** Draws the timeline's legend. Stateless. */
final class Legend {
  private Legend() {}

  static void draw(Svg svg, double y) {
    double x = TimelineHtml.LEFT;
    svg.rect(x, y - 9, 26, 12, "fill:#4a7fd6", null);
    svg.text(x + 30, y, "lock held (token)", "");
    x += 130;
    svg.rect(x, y - 6, 26, 8, "fill:#f0a030", null);
    svg.text(x + 30, y, "holder stalled", "");
    x += 115;
    svg.circle(x + 5, y - 3, 4, "fill:#2a9d3a", null);
    svg.text(x + 14, y, "fenced write accepted", "");
    x += 150;
    svg.cross(x + 5, y - 3, 5, "#d62828", null);
    svg.text(x + 14, y, "fenced write rejected (stale token)", "");
    x += 215;
    svg.triangle(x + 5, y - 3, 6, "fill:#ff7f00;stroke:#7a3d00", null);
    svg.text(x + 14, y, "canary lost update", "");
    x += 130;
    svg.line(x, y - 9, x, y + 2, "stroke:#888");
    svg.text(x + 6, y, "failed acquire", "");
    x += 100;
    svg.rect(x, y - 9, 26, 12, "fill:#8e44ad;fill-opacity:0.3", null);
    svg.text(x + 30, y, "fault (hover for details)", "");
  }
}
