/**
 * The implementation of {@link io.fencedlock.redlock.Redlock}. No compatibility promise:
 * anything here may change without notice.
 */
@NullMarked
package io.fencedlock.redlock.internal;

import org.jspecify.annotations.NullMarked;
