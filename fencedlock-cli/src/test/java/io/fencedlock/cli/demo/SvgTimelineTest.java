package io.fencedlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class SvgTimelineTest {

  @Test
  void render_fencedRun_drawsBothClientRowsWithTokensPauseAndRejection() {
    String svg = SvgTimeline.render(SampleRuns.fencedAsExpected());

    assertThat(svg).startsWith("<svg ").endsWith("</svg>\n");
    assertThat(svg).contains("data-client=\"client 1\"", "data-client=\"client 2\"");
    assertThat(svg).contains("lease, token 33", "lease, token 34");
    assertThat(svg).contains("class=\"pause\"", "GC pause (simulated)");
    assertThat(svg).contains("class=\"write rejected\"", "class=\"write accepted\"");
    assertThat(svg).contains("class=\"stale-belief\"");
  }

  @Test
  void render_unfencedRun_marksTheStaleWriteAsAcceptedStale() {
    String svg = SvgTimeline.render(SampleRuns.unfenced(KleppmannScenario.CLIENT_1_VALUE));

    assertThat(svg).contains("lease (unfenced, no token)", "class=\"write stale-accepted\"");
    assertThat(svg).doesNotContain("class=\"write rejected\"");
  }

  @Test
  void render_twoRuns_useDistinctPatternIds() {
    String fenced = SvgTimeline.render(SampleRuns.fencedAsExpected());
    String unfenced = SvgTimeline.render(SampleRuns.unfenced("x"));

    assertThat(fenced).contains("id=\"t-fenced-hatch\"").doesNotContain("t-unfenced-hatch");
    assertThat(unfenced).contains("id=\"t-unfenced-hatch\"");
  }

  @Test
  void render_valueWithMarkup_isEscaped() {
    String svg = SvgTimeline.render(SampleRuns.unfenced("<b>&'\"</b>"));

    assertThat(svg).doesNotContain("<b>");
  }
}
