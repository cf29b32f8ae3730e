/**
 * {@code ./fencedlock demo}: Kleppmann's GC-pause scenario, played for real on local Redis nodes
 * and the fenced storage service, fenced and unfenced. {@code KleppmannScenario} runs the steps and
 * returns a {@code RunResult} per run; {@code GcPause} is the fault; {@code Timeline} and {@code
 * TimelineEvent} record what happened; {@code ConsoleReport}, {@code SvgTimeline} and {@code
 * HtmlReport} render it; {@link io.fencedlock.cli.demo.DemoMain} is the entry point.
 */
package io.fencedlock.cli.demo;
