package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.fencedlock.testkit.support.RawHttp;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Raw HTTP against the API for what the client does not show: error bodies and status codes,
 * defaults of omitted fields, /populate, PATCH, and the client's body-less POST /reset.
 */
final class ErrorShapeIT {

  @RegisterExtension static final ProxyServers SERVERS = new ProxyServers();
  private final ToxiproxyClient client = SERVERS.target().client();
  private final RawHttp http = SERVERS.target().raw();

  @Test
  void getProxy_unknown_is404WithErrorBody() {
    RawHttp.Response response = http.get("/proxies/" + SERVERS.target().uniqueName("nope"));

    assertError(response, 404, "proxy not found");
    assertThat(response.bodyText()).endsWith("\n");
  }

  @Test
  void getToxic_unknown_is404WithErrorBody() {
    Proxy proxy = SERVERS.target().createProxy(client, "notoxic", SERVERS.echo().upstream());

    assertError(http.get("/proxies/" + proxy.getName() + "/toxics/nope"), 404, "toxic not found");
  }

  @Test
  void createProxy_existingName_is409() {
    Proxy proxy = SERVERS.target().createProxy(client, "conflict", SERVERS.echo().upstream());

    RawHttp.Response response =
        http.post(
            "/proxies",
            "{\"name\":\""
                + proxy.getName()
                + "\",\"listen\":\"127.0.0.1:0\",\"upstream\":\""
                + SERVERS.echo().upstream()
                + "\"}");

    assertError(response, 409, "proxy already exists");
  }

  @Test
  void createProxy_missingNameOrUpstream_is400() {
    assertError(
        http.post("/proxies", "{\"listen\":\"127.0.0.1:0\",\"upstream\":\"x:1\"}"),
        400,
        "missing required field: name");
    assertError(
        http.post("/proxies", "{\"name\":\"" + SERVERS.target().uniqueName("noup") + "\"}"),
        400,
        "missing required field: upstream");
  }

  @Test
  void createProxy_malformedOrEmptyBody_is400BadRequestBody() {
    RawHttp.Response malformed = http.post("/proxies", "{not json");
    RawHttp.Response empty = http.post("/proxies", "");

    assertThat(malformed.status()).isEqualTo(400);
    assertThat(errorOf(malformed)).startsWith("bad request body: ");
    assertThat(empty.status()).isEqualTo(400);
    assertThat(errorOf(empty)).startsWith("bad request body: ");
  }

  @Test
  void createProxy_enabledOmittedViaRaw_is201AndEnabled() {
    String name = SERVERS.target().uniqueName("created");

    RawHttp.Response response =
        http.post(
            "/proxies",
            "{\"name\":\""
                + name
                + "\",\"listen\":\"localhost:0\",\"upstream\":\""
                + SERVERS.echo().upstream()
                + "\"}");

    assertThat(response.status()).isEqualTo(201);
    JsonObject proxy = json(response).getAsJsonObject();
    assertThat(proxy.get("enabled").getAsBoolean()).isTrue();
    assertThat(proxy.get("listen").getAsString()).matches("127\\.0\\.0\\.1:\\d+");
    assertThat(proxy.getAsJsonArray("toxics")).isEmpty();
  }

  @Test
  void createProxy_disabled_keepsListenAsGiven() {
    String name = SERVERS.target().uniqueName("disabled");

    RawHttp.Response response =
        http.post(
            "/proxies",
            "{\"name\":\""
                + name
                + "\",\"listen\":\"localhost:0\",\"upstream\":\""
                + SERVERS.echo().upstream()
                + "\",\"enabled\":false}");

    assertThat(response.status()).isEqualTo(201);
    assertThat(json(response).getAsJsonObject().get("listen").getAsString())
        .isEqualTo("localhost:0");
  }

  @Test
  void createToxic_invalidTypeOrStream_is400() {
    Proxy proxy = SERVERS.target().createProxy(client, "badtoxic", SERVERS.echo().upstream());
    String path = "/proxies/" + proxy.getName() + "/toxics";

    assertError(http.post(path, "{\"type\":\"bogus\"}"), 400, "invalid toxic type");
    assertError(
        http.post(path, "{\"type\":\"latency\",\"stream\":\"sideways\"}"),
        400,
        "stream was invalid, can be either upstream or downstream");
  }

  @Test
  void createToxic_unknownProxyWithBadBody_is404First() {
    assertError(
        http.post("/proxies/" + SERVERS.target().uniqueName("ghost") + "/toxics", "{oops"),
        404,
        "proxy not found");
  }

  @Test
  void createToxic_onlyType_is200WithDefaults() {
    Proxy proxy = SERVERS.target().createProxy(client, "defaults", SERVERS.echo().upstream());

    RawHttp.Response response =
        http.post("/proxies/" + proxy.getName() + "/toxics", "{\"type\":\"latency\"}");

    assertThat(response.status()).isEqualTo(200);
    JsonObject toxic = json(response).getAsJsonObject();
    assertThat(toxic.get("name").getAsString()).isEqualTo("latency_downstream");
    assertThat(toxic.get("stream").getAsString()).isEqualTo("downstream");
    assertThat(toxic.get("toxicity").getAsFloat()).isEqualTo(1.0f);
    assertThat(toxic.getAsJsonObject("attributes").get("latency").getAsLong()).isZero();
    assertThat(toxic.getAsJsonObject("attributes").get("jitter").getAsLong()).isZero();
  }

  @Test
  void patchToxic_partialAttributes_mergesAndKeepsOthers() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "patch", SERVERS.echo().upstream());
    proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 100).setJitter(10);

    RawHttp.Response response =
        http.patch(
            "/proxies/" + proxy.getName() + "/toxics/lat", "{\"attributes\":{\"jitter\":20}}");

    assertThat(response.status()).isEqualTo(200);
    JsonObject attributes = json(response).getAsJsonObject().getAsJsonObject("attributes");
    assertThat(attributes.get("latency").getAsLong()).isEqualTo(100);
    assertThat(attributes.get("jitter").getAsLong()).isEqualTo(20);
  }

  @Test
  void patchProxy_enabledFalse_disablesAndKeepsOtherFields() {
    Proxy proxy = SERVERS.target().createProxy(client, "patchproxy", SERVERS.echo().upstream());

    RawHttp.Response response = http.patch("/proxies/" + proxy.getName(), "{\"enabled\":false}");

    assertThat(response.status()).isEqualTo(200);
    JsonObject json = json(response).getAsJsonObject();
    assertThat(json.get("enabled").getAsBoolean()).isFalse();
    assertThat(json.get("listen").getAsString()).isEqualTo(proxy.getListen());
    assertThat(json.get("upstream").getAsString()).isEqualTo(SERVERS.echo().upstream());
  }

  @Test
  void updateToxic_unknownToxic_is404() {
    Proxy proxy = SERVERS.target().createProxy(client, "updatemissing", SERVERS.echo().upstream());

    assertError(
        http.post("/proxies/" + proxy.getName() + "/toxics/nope", "{\"toxicity\":0.5}"),
        404,
        "toxic not found");
  }

  @Test
  void deleteProxy_existingThenAgain_is204Then404() {
    Proxy proxy = SERVERS.target().createProxy(client, "deleteraw", SERVERS.echo().upstream());

    assertThat(http.delete("/proxies/" + proxy.getName()).status()).isEqualTo(204);
    assertError(http.delete("/proxies/" + proxy.getName()), 404, "proxy not found");
  }

  @Test
  void reset_postWithoutBodyOrContentLength_is204() {
    RawHttp.Response response =
        http.sendVerbatim(
            "POST /reset HTTP/1.1\r\nHost: "
                + http.hostHeader()
                + "\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\n"
                + "Connection: close\r\n\r\n");

    assertThat(response.status()).isEqualTo(204);
  }

  @Test
  void populate_newThenSameThenChanged_keepsToxicsOnlyWhenUnchanged() throws IOException {
    String name = SERVERS.target().uniqueName("populated");
    String entry =
        "[{\"name\":\""
            + name
            + "\",\"listen\":\"127.0.0.1:0\",\"upstream\":\""
            + SERVERS.echo().upstream()
            + "\"}]";
    RawHttp.Response created = http.post("/populate", entry);
    assertThat(created.status()).isEqualTo(201);
    JsonArray proxies = json(created).getAsJsonObject().getAsJsonArray("proxies");
    String listen = proxies.get(0).getAsJsonObject().get("listen").getAsString();
    client.getProxy(name).toxics().latency("lat", ToxicDirection.DOWNSTREAM, 5);

    RawHttp.Response same = http.post("/populate", entry.replace("127.0.0.1:0", listen));
    assertThat(same.status()).isEqualTo(201);
    assertThat(client.getProxy(name).toxics().getAll()).hasSize(1);

    RawHttp.Response changed =
        http.post("/populate", entry.replace(SERVERS.echo().upstream(), "127.0.0.1:2"));
    assertThat(changed.status()).isEqualTo(201);
    assertThat(client.getProxy(name).toxics().getAll()).isEmpty();
    assertThat(client.getProxy(name).getUpstream()).isEqualTo("127.0.0.1:2");
  }

  @Test
  void populate_entryWithoutUpstream_is400NamingTheEntry() {
    RawHttp.Response response =
        http.post(
            "/populate",
            "[{\"name\":\""
                + SERVERS.target().uniqueName("ok")
                + "\",\"upstream\":\"x:1\"},{\"name\":\""
                + SERVERS.target().uniqueName("bad")
                + "\"}]");

    assertError(response, 400, "missing required field: upstream at proxy 2");
  }

  private static void assertError(RawHttp.Response response, int status, String message) {
    assertThat(response.status()).isEqualTo(status);
    JsonObject json = json(response).getAsJsonObject();
    assertThat(json.get("error").getAsString()).isEqualTo(message);
    assertThat(json.get("status").getAsInt()).isEqualTo(status);
  }

  private static String errorOf(RawHttp.Response response) {
    return json(response).getAsJsonObject().get("error").getAsString();
  }

  private static JsonElement json(RawHttp.Response response) {
    return JsonParser.parseString(response.bodyText());
  }
}
