/**
 * Redlock with quorum fencing tokens: the public API.
 *
 * <p>Start at {@link io.fencedlock.redlock.Redlock}. Everything in the {@code internal} subpackage
 * may change without notice.
 */
@NullMarked
package io.fencedlock.redlock;

import org.jspecify.annotations.NullMarked;
