package io.fencedlock.chaos.runner;

import java.util.Locale;

/** A tiny SVG builder: shapes with an optional hover title. Not thread-safe: one per document. */
final class Svg {
  private final StringBuilder out = new StringBuilder();

  void rect(double x, double y, double w, double h, String style, String title) {
    out.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" style=\"%s\">%s</rect>%n",
            x,
            y,
            Math.max(w, 1),
            h,
            style,
            title(title)));
  }

  void line(double x1, double y1, double x2, double y2, String style) {
    out.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" style=\"%s\"/>%n",
            x1,
            y1,
            x2,
            y2,
            style));
  }

  void circle(double x, double y, double r, String style, String title) {
    out.append(
        String.format(
            Locale.ROOT,
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" style=\"%s\">%s</circle>%n",
            x,
            y,
            r,
            style,
            title(title)));
  }

  void cross(double x, double y, double r, String color, String title) {
    out.append(
        String.format(
            Locale.ROOT,
            "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\""
                + " style=\"stroke:%s;stroke-width:2.5\">%s</path>%n",
            x - r,
            y - r,
            x + r,
            y + r,
            x - r,
            y + r,
            x + r,
            y - r,
            color,
            title(title)));
  }

  void triangle(double x, double y, double r, String style, String title) {
    out.append(
        String.format(
            Locale.ROOT,
            "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" style=\"%s\">%s</path>%n",
            x,
            y - r,
            x + r,
            y + r,
            x - r,
            y + r,
            style,
            title(title)));
  }

  void text(double x, double y, String text, String style) {
    out.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%.1f\" style=\"%s\">%s</text>%n",
            x,
            y,
            style,
            escape(text)));
  }

  void raw(String markup) {
    out.append(markup).append('\n');
  }

  String build(double width, double height) {
    return String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                + "style=\"font-family:sans-serif;font-size:11px\">%n",
            width,
            height)
        + out
        + "</svg>\n";
  }

  private static String title(String title) {
    return title == null || title.isEmpty() ? "" : "<title>" + escape(title) + "</title>";
  }

  static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
