package io.fencedlock.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes report.html (tables and one percentile plot per scenario, viewable in any browser) and
 * each plot as its own .svg file for the docs.
 */
final class ReportHtml {
  private ReportHtml() {}

  static void write(
      Path dir, RunInfo info, Map<String, ScenarioResult> scenarios, List<Target> targets) {
    StringBuilder html =
        new StringBuilder(
            "<!DOCTYPE html>\n"
                + "<html><head><meta charset=\"utf-8\"><title>fencedlock"
                + " benchmarks</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px"
                + " solid #ccc;padding:3px"
                + " 8px;text-align:right}td:first-child{text-align:left}</style></head><body>\n"
                + "<h1>fencedlock benchmarks</h1>\n");
    html.append(
        String.format(
            Locale.ROOT,
            "<p>%s run, %s, %d repetitions (medians shown), %s; %d CPUs, %s, %s,"
                + " Redis %s. Plots merge all repetitions.</p>%n",
            info.mode(),
            info.startedAt(),
            info.reps(),
            info.window(),
            info.cpus(),
            info.os(),
            info.java(),
            info.redis()));
    try {
      Files.createDirectories(dir);
      for (ScenarioResult s : scenarios.values()) {
        String svg = PercentilePlot.render(s);
        Files.writeString(dir.resolve("scenario-" + s.id() + ".svg"), svg);
        html.append("<h2>Scenario ")
            .append(s.id())
            .append(": ")
            .append(escape(s.title()))
            .append("</h2>\n");
        html.append(svg);
      }
      html.append("<h2>Tables</h2>\n<pre>")
          .append(escape(Tables.markdown(scenarios, targets)))
          .append("</pre>\n");
      html.append("</body></html>\n");
      Files.writeString(dir.resolve("report.html"), html);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the report into " + dir, e);
    }
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
