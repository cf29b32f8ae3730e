/**
 * Test support shared by every module, so that no module keeps its own copy.
 *
 * <ul>
 *   <li>{@link io.fencedlock.testkit.support.Timing}: every test time bound, scaled by one knob
 *       ({@code -Dfencedlock.timing.scale} or {@code FENCEDLOCK_TIMING_SCALE}).
 *   <li>{@link io.fencedlock.testkit.support.ChildProcess}: a child JVM or command with its output
 *       in files, for kill -9, SIGTERM, exit codes and printed lines.
 *   <li>{@link io.fencedlock.testkit.support.TempDirs}: temporary directories, deleted with
 *       everything below them.
 *   <li>{@link io.fencedlock.testkit.support.RawHttp}: HTTP/1.1 over a plain socket, for requests
 *       and responses a real client hides.
 * </ul>
 *
 * <p>Nothing here depends on a test library, so the command-line tools that start Redis nodes
 * through the test kit do not put one on their classpath.
 */
package io.fencedlock.testkit.support;
