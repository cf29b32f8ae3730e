package io.fencedlock.cli.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the demo's self-contained HTML report: for each run a verdict, an {@link SvgTimeline} and
 * the text timeline. No scripts, no external resources, so it opens from disk anywhere.
 *
 * <p>Stateless and thread-safe.
 */
final class HtmlReport {
  private static final String STYLE =
      "body{font-family:sans-serif;margin:24px;color:#212121;max-width:1000px}"
          + "h1{font-size:22px}h2{font-size:17px;margin-top:28px}"
          + ".ok{color:#2e7d32;font-weight:bold}.bad{color:#c62828;font-weight:bold}"
          + "pre{background:#f5f5f5;padding:8px;font-size:12px;white-space:pre-wrap}"
          + "p.meta{color:#616161;font-size:13px}";

  private HtmlReport() {}

  /**
   * Writes the report to {@code file}, creating its directory.
   *
   * @throws UncheckedIOException if the file cannot be written
   */
  static void write(DemoResult result, Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Files.writeString(file, render(result), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report to " + file, e);
    }
  }

  /** The whole page. */
  static String render(DemoResult result) {
    StringBuilder html = new StringBuilder();
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>fencedlock demo: fencing tokens vs. a GC pause</title>")
        .append("<style>")
        .append(STYLE)
        .append("</style></head><body>\n")
        .append("<h1>Kleppmann's scenario, for real: a paused lock holder writes late</h1>\n")
        .append(
            "<p>Client 1 acquires the lock, then stalls (a simulated stop-the-world GC pause) until"
                + " its lease has run out. Client 2 acquires and writes. Client 1 wakes up, still"
                + " believing it holds the lock, and writes. With fencing tokens the storage"
                + " service rejects that stale write; without them client 2's update is"
                + " lost.</p>\n")
        .append("<p class=\"meta\">Redis nodes: ")
        .append(Xml.escape(String.join(", ", result.nodeUris())))
        .append("<br>Storage service: ")
        .append(Xml.escape(result.storageUrl()))
        .append("</p>\n");
    for (RunResult run : result.runs()) {
      appendRun(html, run);
    }
    return html.append("</body></html>\n").toString();
  }

  private static void appendRun(StringBuilder html, RunResult run) {
    html.append("<section id=\"")
        .append(run.mode().label())
        .append("\">\n<h2>")
        .append(Xml.escape(run.mode().label() + ": " + run.mode().title()))
        .append("</h2>\n")
        .append("<p class=\"")
        .append(run.asExpected() ? "ok" : "bad")
        .append("\">")
        .append(Xml.escape(run.verdict()))
        .append("</p>\n")
        .append(SvgTimeline.render(run))
        .append("<pre>");
    for (TimelineEvent event : run.events()) {
      html.append(Xml.escape(ConsoleReport.line(event))).append('\n');
    }
    html.append("</pre>\n</section>\n");
  }
}
