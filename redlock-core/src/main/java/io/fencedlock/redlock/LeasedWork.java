package io.fencedlock.redlock;

/**
 * Work that runs under a lock, given its lease (pass {@link Lease#fencingToken()} to every resource
 * it writes).
 *
 * @param <T> the work's result
 * @param <E> the checked exception the work may throw, which {@link Redlock#withLock} passes on
 */
@FunctionalInterface
public interface LeasedWork<T, E extends Exception> {
  T run(Lease lease) throws E;
}
