/**
 * Real {@code redis-server} processes as a test fixture.
 *
 * <p>{@link io.fencedlock.testkit.RedisNodes} starts N independent Redis masters on free loopback
 * ports, each with its own temporary data directory, and lets tests inject the faults Redlock has
 * to survive: {@link io.fencedlock.testkit.RedisNode#kill() kill -9}, {@link
 * io.fencedlock.testkit.RedisNode#pause() SIGSTOP}/{@link io.fencedlock.testkit.RedisNode#resume()
 * SIGCONT}, and {@link io.fencedlock.testkit.RedisNode#restart(Persistence) restart} with or
 * without persistence (a restart without persistence is a memory loss).
 *
 * <p>The binary is found by {@link io.fencedlock.testkit.RedisBinary#locate()}: {@code
 * REDIS_SERVER}, then {@code redis-server} on {@code PATH}, then the Linux x86-64 binary bundled in
 * the embedded-redis jar. Every process started here is also registered JVM-wide and killed by a
 * shutdown hook, so a crashed or interrupted test run does not leave servers behind.
 *
 * <p>{@link io.fencedlock.testkit.ContainerNodes} runs the same nodes in containers, one each,
 * built from the same binary; {@link io.fencedlock.testkit.Deployment} and {@link
 * io.fencedlock.testkit.Node} are the operations both backends offer, and {@link
 * io.fencedlock.testkit.Backend} picks one. Containers need a Docker engine and Testcontainers (an
 * optional dependency) on the classpath.
 *
 * <p>This package depends on nothing in the project, so every module can use it in its tests.
 */
package io.fencedlock.testkit;
