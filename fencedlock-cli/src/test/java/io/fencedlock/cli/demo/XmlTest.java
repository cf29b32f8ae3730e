package io.fencedlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class XmlTest {

  @Test
  void escape_specialCharacters_becomeEntities() {
    assertThat(Xml.escape("a<b>&\"c'")).isEqualTo("a&lt;b&gt;&amp;&quot;c&#39;");
  }

  @Test
  void escape_plainText_isUnchanged() {
    assertThat(Xml.escape("client 1: token 33")).isEqualTo("client 1: token 33");
  }
}
