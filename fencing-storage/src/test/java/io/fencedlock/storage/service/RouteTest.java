package io.fencedlock.storage.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.storage.service.Route.Endpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class RouteTest {

  @Test
  void parse_knownPaths_resolved() {
    assertThat(Route.parse("/objects/k")).contains(new Route(Endpoint.OBJECT, "k"));
    assertThat(Route.parse("/objects/k/fence")).contains(new Route(Endpoint.FENCE, "k"));
    assertThat(Route.parse("/objects/fence")).contains(new Route(Endpoint.OBJECT, "fence"));
    assertThat(Route.parse("/stats")).contains(new Route(Endpoint.STATS, ""));
    assertThat(Route.parse("/health")).contains(new Route(Endpoint.HEALTH, ""));
  }

  @Test
  void parse_emptyKey_resolvedSoTheKeyCheckRejectsIt() {
    assertThat(Route.parse("/objects/")).contains(new Route(Endpoint.OBJECT, ""));
    assertThat(Route.parse("/objects//fence")).contains(new Route(Endpoint.FENCE, ""));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "/",
        "/objects",
        "/objects/a/b",
        "/objects/a/b/fence",
        "/stats/",
        "/objects/k/fence/",
        "/objects/k/unfence",
        "/x/objects/k"
      })
  void parse_unknownPaths_empty(String path) {
    assertThat(Route.parse(path)).isEmpty();
  }

  @Test
  void parse_null_empty() {
    assertThat(Route.parse(null)).isEmpty();
  }

  @Test
  void endpoint_methods_allowedAndListed() {
    assertThat(Endpoint.OBJECT.allows("PUT")).isTrue();
    assertThat(Endpoint.OBJECT.allows("POST")).isFalse();
    assertThat(Endpoint.OBJECT.allowHeader()).isEqualTo("GET, PUT");
    assertThat(Endpoint.FENCE.allowHeader()).isEqualTo("POST");
  }
}
