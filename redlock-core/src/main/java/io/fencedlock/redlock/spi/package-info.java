/**
 * The seam between the Redlock algorithm and the Redis nodes it runs on: {@link
 * io.fencedlock.redlock.spi.NodeDriver} (one asynchronous call per node script, typed replies) and
 * {@link io.fencedlock.redlock.spi.Environment} (the scheduler, randomness and wall clock the
 * algorithm uses besides the {@link io.fencedlock.redlock.Ticker}).
 *
 * <p>{@link io.fencedlock.redlock.Redlock#create(io.fencedlock.redlock.RedlockConfig)} uses the
 * Lettuce driver ({@code io.fencedlock.redlock.lettuce}) and the system environment; {@link
 * io.fencedlock.redlock.Redlock#create(io.fencedlock.redlock.RedlockConfig, NodeDriver,
 * Environment)} runs the same algorithm over any other, such as the deterministic simulator's
 * simulated nodes and time. This package is for such drivers and for tests: it carries no
 * compatibility promise.
 */
@NullMarked
package io.fencedlock.redlock.spi;

import org.jspecify.annotations.NullMarked;
