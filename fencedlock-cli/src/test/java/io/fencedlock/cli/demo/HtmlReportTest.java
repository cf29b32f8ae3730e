package io.fencedlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class HtmlReportTest {
  @TempDir Path dir;

  @Test
  void write_demo_writesOnePageWithBothRunsAndTheirVerdicts() throws IOException {
    Path file = dir.resolve("nested/report.html");

    HtmlReport.write(SampleRuns.demo(), file);

    String html = Files.readString(file);
    assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
    assertThat(html).contains("<section id=\"fenced\">", "<section id=\"unfenced\">");
    assertThat(html.split("<svg ", -1)).hasSize(3);
    assertThat(html).contains("class=\"ok\"").doesNotContain("class=\"bad\"");
    assertThat(html).contains("LOST UPDATE", "http://127.0.0.1:8080");
  }
}
