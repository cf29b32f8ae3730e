/**
 * Micrometer metrics for a {@link io.fencedlock.redlock.Redlock}: pass {@link
 * io.fencedlock.redlock.micrometer.MicrometerMetrics#of} to {@link
 * io.fencedlock.redlock.RedlockConfig.Builder#metrics}. Needs {@code io.micrometer:micrometer-core}
 * on the classpath, which the library itself declares optional.
 */
@NullMarked
package io.fencedlock.redlock.micrometer;

import org.jspecify.annotations.NullMarked;
