package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import eu.rekawek.toxiproxy.model.toxic.Bandwidth;
import eu.rekawek.toxiproxy.model.toxic.Latency;
import eu.rekawek.toxiproxy.model.toxic.LimitData;
import eu.rekawek.toxiproxy.model.toxic.ResetPeer;
import eu.rekawek.toxiproxy.model.toxic.Slicer;
import eu.rekawek.toxiproxy.model.toxic.SlowClose;
import eu.rekawek.toxiproxy.model.toxic.Timeout;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every toxiproxy-java 2.1.11 method against the server under test, checking what the client sees:
 * proxy and toxic fields, defaults, listen resolution, ordering and partial updates.
 */
final class ClientApiIT {

  @RegisterExtension static final ProxyServers SERVERS = new ProxyServers();
  private final ToxiproxyClient client = SERVERS.target().client();

  @Test
  void createProxy_localhostPortZero_resolvesListenToBoundLoopbackPort() throws IOException {
    String name = SERVERS.target().uniqueName("listen");

    Proxy proxy = client.createProxy(name, "localhost:0", SERVERS.echo().upstream());

    assertThat(proxy.getName()).isEqualTo(name);
    assertThat(proxy.getListen()).matches("127\\.0\\.0\\.1:\\d+");
    assertThat(ToxiproxyTarget.listenPort(proxy.getListen())).isPositive();
    assertThat(proxy.getUpstream()).isEqualTo(SERVERS.echo().upstream());
    assertThat(proxy.isEnabled()).isTrue();
  }

  @Test
  void getProxyAndGetProxies_existingProxy_returnSameFields() throws IOException {
    Proxy created = SERVERS.target().createProxy(client, "get", SERVERS.echo().upstream());

    Proxy fetched = client.getProxy(created.getName());
    List<Proxy> all = client.getProxies();

    assertThat(fetched.getListen()).isEqualTo(created.getListen());
    assertThat(fetched.getUpstream()).isEqualTo(created.getUpstream());
    assertThat(all).extracting(Proxy::getName).contains(created.getName());
    assertThat(all)
        .filteredOn(p -> p.getName().equals(created.getName()))
        .singleElement()
        .extracting(Proxy::getListen)
        .isEqualTo(created.getListen());
  }

  @Test
  void getProxyOrNull_unknownName_returnsNull() {
    assertThat(client.getProxyOrNull(SERVERS.target().uniqueName("missing"))).isNull();
  }

  @Test
  void getProxy_unknownName_throwsNotFound() {
    assertThatThrownBy(() -> client.getProxy(SERVERS.target().uniqueName("missing")))
        .isInstanceOf(IOException.class)
        .hasMessage("[404] proxy not found");
  }

  @Test
  void createProxy_nameTaken_throwsConflict() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "dup", SERVERS.echo().upstream());

    assertThatThrownBy(
            () -> client.createProxy(proxy.getName(), "127.0.0.1:0", SERVERS.echo().upstream()))
        .isInstanceOf(IOException.class)
        .hasMessage("[409] proxy already exists");
  }

  @Test
  void version_always_returnsNonBlankText() throws IOException {
    assertThat(client.version()).isNotBlank();
  }

  @Test
  void disableAndEnable_proxy_toggleEnabledAndKeepListen() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "toggle", SERVERS.echo().upstream());
    String listen = proxy.getListen();

    proxy.disable();
    assertThat(proxy.isEnabled()).isFalse();
    assertThat(client.getProxy(proxy.getName()).isEnabled()).isFalse();

    proxy.enable();
    assertThat(proxy.isEnabled()).isTrue();
    assertThat(proxy.getListen()).isEqualTo(listen);
  }

  @Test
  void setListen_newAddress_rebindsAndReportsResolvedAddress() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "relisten", SERVERS.echo().upstream());
    String before = proxy.getListen();

    proxy.setListen(SERVERS.target().anyPortListen()); // localhost:0 where the server runs here

    assertThat(proxy.getListen())
        .matches(Pattern.quote(SERVERS.target().proxyHost()) + ":\\d+")
        .isNotEqualTo(before);
    assertThat(proxy.isEnabled()).isTrue();
    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      assertThat(connection.roundTrip(new byte[] {1, 2, 3})).containsExactly(1, 2, 3);
    }
  }

  @Test
  void setUpstream_newUpstream_isReported() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "reupstream", "127.0.0.1:1");

    proxy.setUpstream(SERVERS.echo().upstream());

    assertThat(proxy.getUpstream()).isEqualTo(SERVERS.echo().upstream());
    assertThat(client.getProxy(proxy.getName()).getUpstream()).isEqualTo(SERVERS.echo().upstream());
  }

  @Test
  void delete_existingProxy_removesIt() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "delete", SERVERS.echo().upstream());

    proxy.delete();

    assertThat(client.getProxyOrNull(proxy.getName())).isNull();
    // The client reads the 404 as a missing resource: HttpURLConnection throws
    // FileNotFoundException.
    assertThatThrownBy(proxy::delete).isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void reset_disabledProxyWithToxics_reenablesAndRemovesToxics() throws IOException {
    ToxiproxyClient fresh =
        SERVERS.target().client(); // reset() re-reads every proxy this client has seen
    Proxy proxy = SERVERS.target().createProxy(fresh, "reset", SERVERS.echo().upstream());
    proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 50);
    proxy.toxics().timeout("to", ToxicDirection.UPSTREAM, 0);
    proxy.disable();

    fresh.reset();

    Proxy after = fresh.getProxy(proxy.getName());
    assertThat(after.isEnabled()).isTrue();
    assertThat(after.getListen()).isEqualTo(proxy.getListen());
    assertThat(after.toxics().getAll()).isEmpty();
  }

  @Test
  void toxicCreators_eachType_echoAllAttributesAndDefaults() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "creators", SERVERS.echo().upstream());

    Latency latency = proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 100);
    Bandwidth bandwidth = proxy.toxics().bandwidth("bw", ToxicDirection.UPSTREAM, 64);
    SlowClose slowClose = proxy.toxics().slowClose("sc", ToxicDirection.DOWNSTREAM, 200);
    Timeout timeout = proxy.toxics().timeout("to", ToxicDirection.UPSTREAM, 300);
    ResetPeer resetPeer = proxy.toxics().resetPeer("rp", ToxicDirection.DOWNSTREAM, 400);
    LimitData limitData = proxy.toxics().limitData("ld", ToxicDirection.UPSTREAM, 500);
    Slicer slicer = proxy.toxics().slicer("sl", ToxicDirection.DOWNSTREAM, 10, 20);

    assertThat(latency.getLatency()).isEqualTo(100);
    assertThat(latency.getJitter()).isZero();
    assertThat(latency.getToxicity()).isEqualTo(1.0f);
    assertThat(latency.getStream()).isEqualTo(ToxicDirection.DOWNSTREAM);
    assertThat(bandwidth.getRate()).isEqualTo(64);
    assertThat(slowClose.getDelay()).isEqualTo(200);
    assertThat(timeout.getTimeout()).isEqualTo(300);
    assertThat(resetPeer.getTimeout()).isEqualTo(400);
    assertThat(limitData.getBytes()).isEqualTo(500);
    assertThat(slicer.getAverageSize()).isEqualTo(10);
    assertThat(slicer.getSizeVariation()).isZero();
    assertThat(slicer.getDelay()).isEqualTo(20);
  }

  @Test
  void getAll_toxicsInBothDirections_listsUpstreamFirstInInsertionOrder() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "order", SERVERS.echo().upstream());
    proxy.toxics().latency("d1", ToxicDirection.DOWNSTREAM, 1);
    proxy.toxics().latency("u1", ToxicDirection.UPSTREAM, 1);
    proxy.toxics().latency("d2", ToxicDirection.DOWNSTREAM, 1);
    proxy.toxics().latency("u2", ToxicDirection.UPSTREAM, 1);

    List<? extends Toxic> toxics = proxy.toxics().getAll();

    assertThat(toxics).extracting(Toxic::getName).containsExactly("u1", "u2", "d1", "d2");
  }

  @Test
  void get_byNameAndClass_returnsTypedToxic() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "gettoxic", SERVERS.echo().upstream());
    proxy.toxics().bandwidth("bw", ToxicDirection.DOWNSTREAM, 32);

    Toxic untyped = proxy.toxics().get("bw");
    Bandwidth typed = proxy.toxics().get("bw", Bandwidth.class);

    assertThat(untyped).isInstanceOf(Bandwidth.class);
    assertThat(typed.getRate()).isEqualTo(32);
    assertThatThrownBy(() -> proxy.toxics().get("nope"))
        .isInstanceOf(IOException.class)
        .hasMessage("[404] toxic not found");
  }

  @Test
  void createToxic_nameTakenInOtherDirection_throwsConflict() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "toxicdup", SERVERS.echo().upstream());
    proxy.toxics().latency("same", ToxicDirection.DOWNSTREAM, 1);

    assertThatThrownBy(() -> proxy.toxics().latency("same", ToxicDirection.UPSTREAM, 1))
        .isInstanceOf(IOException.class)
        .hasMessage("[409] toxic already exists");
  }

  @Test
  void attributeSetters_oneAttributeEach_mergeAndKeepOthers() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "setters", SERVERS.echo().upstream());
    Latency latency = proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 100);
    Slicer slicer = proxy.toxics().slicer("sl", ToxicDirection.UPSTREAM, 10, 20);

    latency.setJitter(7);
    slicer.setSizeVariation(3).setAverageSize(12).setDelay(30);

    Latency latencyAfter = proxy.toxics().get("lat", Latency.class);
    assertThat(latencyAfter.getLatency()).isEqualTo(100);
    assertThat(latencyAfter.getJitter()).isEqualTo(7);
    latency.setLatency(150);
    assertThat(proxy.toxics().get("lat", Latency.class).getJitter()).isEqualTo(7);
    Slicer slicerAfter = proxy.toxics().get("sl", Slicer.class);
    assertThat(slicerAfter.getAverageSize()).isEqualTo(12);
    assertThat(slicerAfter.getSizeVariation()).isEqualTo(3);
    assertThat(slicerAfter.getDelay()).isEqualTo(30);
  }

  @Test
  void remainingSetters_oneAttributeEach_updateTheirToxic() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "setters2", SERVERS.echo().upstream());

    proxy.toxics().bandwidth("bw", ToxicDirection.DOWNSTREAM, 1).setRate(2);
    proxy.toxics().slowClose("sc", ToxicDirection.DOWNSTREAM, 1).setDelay(3);
    proxy.toxics().timeout("to", ToxicDirection.DOWNSTREAM, 1).setTimeout(4);
    proxy.toxics().resetPeer("rp", ToxicDirection.DOWNSTREAM, 1).setTimeout(5);
    proxy.toxics().limitData("ld", ToxicDirection.DOWNSTREAM, 1).setBytes(6);

    assertThat(proxy.toxics().get("bw", Bandwidth.class).getRate()).isEqualTo(2);
    assertThat(proxy.toxics().get("sc", SlowClose.class).getDelay()).isEqualTo(3);
    assertThat(proxy.toxics().get("to", Timeout.class).getTimeout()).isEqualTo(4);
    assertThat(proxy.toxics().get("rp", ResetPeer.class).getTimeout()).isEqualTo(5);
    assertThat(proxy.toxics().get("ld", LimitData.class).getBytes()).isEqualTo(6);
  }

  @Test
  void setToxicity_newValue_keepsAttributes() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "toxicity", SERVERS.echo().upstream());
    Latency latency = proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 100);

    latency.setToxicity(0.25f);

    Latency after = proxy.toxics().get("lat", Latency.class);
    assertThat(after.getToxicity()).isEqualTo(0.25f);
    assertThat(after.getLatency()).isEqualTo(100);
  }

  @Test
  void remove_existingToxic_removesOnlyIt() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "remove", SERVERS.echo().upstream());
    Latency latency = proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 100);
    proxy.toxics().timeout("to", ToxicDirection.UPSTREAM, 0);

    latency.remove();

    assertThat(proxy.toxics().getAll()).extracting(Toxic::getName).containsExactly("to");
    assertThatThrownBy(latency::remove).isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void toxicsSurvive_disableAndEnable() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "survive", SERVERS.echo().upstream());
    proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 10);

    proxy.disable();
    proxy.enable();

    assertThat(proxy.toxics().getAll()).extracting(Toxic::getName).containsExactly("lat");
  }
}
