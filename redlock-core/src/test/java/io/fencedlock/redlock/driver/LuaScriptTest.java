package io.fencedlock.redlock.driver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class LuaScriptTest {

  @Test
  void scripts_loadFromClasspath_withHeaderAndSha1() {
    assertThat(LuaScript.ALL).hasSize(11).doesNotHaveDuplicates();
    for (LuaScript script : LuaScript.ALL) {
      assertThat(script.source()).as(script.name()).contains("KEYS[1]").contains("Returns");
      assertThat(script.sha1()).as(script.name()).matches("[0-9a-f]{40}");
    }
  }

  @Test
  void sha1_knownInput_matchesRedisDigest() {
    // SCRIPT LOAD "return 1" answers e0e1f9fabfc9d4800c877a703b823ac0578ff8db on every Redis.
    assertThat(LuaScript.digest("return 1")).isEqualTo("e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
  }
}
