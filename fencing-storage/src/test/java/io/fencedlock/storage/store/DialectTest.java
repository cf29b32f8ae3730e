package io.fencedlock.storage.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class DialectTest {

  @Test
  void forUrl_supportedDatabases_picked() {
    assertThat(Dialect.forUrl("jdbc:sqlite:/tmp/x.db")).isEqualTo(Dialect.SQLITE);
    assertThat(Dialect.forUrl("JDBC:SQLITE:x.db")).isEqualTo(Dialect.SQLITE);
    assertThat(Dialect.forUrl("jdbc:postgresql://h:5432/db")).isEqualTo(Dialect.POSTGRESQL);
  }

  @Test
  void forUrl_otherDatabase_throwsIllegalArgument() {
    assertThatThrownBy(() -> Dialect.forUrl("jdbc:mysql://h/db"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jdbc:mysql");
  }

  @Test
  void createTableSql_differsOnlyInBlobType() {
    assertThat(Dialect.SQLITE.createTableSql()).contains("value BLOB");
    assertThat(Dialect.POSTGRESQL.createTableSql()).contains("value BYTEA");
    assertThat(Dialect.SQLITE.createTableSql().replace("BLOB", "BYTEA"))
        .isEqualTo(Dialect.POSTGRESQL.createTableSql());
  }

  @Test
  void maxConnections_sqliteSingleWriter() {
    assertThat(Dialect.SQLITE.maxConnections()).isEqualTo(1);
    assertThat(Dialect.POSTGRESQL.maxConnections()).isGreaterThan(1);
  }
}
