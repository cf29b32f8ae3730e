/**
 * A private PostgreSQL server for tests and the chaos harness ({@link
 * io.fencedlock.testkit.postgres.PostgresServer}), found through {@link
 * io.fencedlock.testkit.postgres.PostgresBinaries}. Driven with PostgreSQL's own command-line
 * tools, so the test kit carries no JDBC driver.
 */
package io.fencedlock.testkit.postgres;
