/**
 * The command-line tools behind {@code ./fencedlock}: {@link io.fencedlock.cli.ExampleMain} ({@code
 * example}), {@link io.fencedlock.cli.ServeMain} ({@code serve}) and, in {@link
 * io.fencedlock.cli.demo}, the GC-pause demo ({@code demo}). {@link
 * io.fencedlock.cli.DemoEnvironment} is what the demo and {@code serve} run on: five local Redis
 * nodes from the test kit and the fenced storage service. Not a library: these types may change
 * without notice.
 */
package io.fencedlock.cli;
