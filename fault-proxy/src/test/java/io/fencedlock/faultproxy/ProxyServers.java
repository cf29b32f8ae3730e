package io.fencedlock.faultproxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The servers a conformance test class talks to: the Toxiproxy under test (ours, or a real one
 * from {@code TOXIPROXY_URL}) and an echo server as the proxies' upstream. Started once per
 * class, proxies deleted after each test. Register as a static field with
 * {@code @RegisterExtension}.
 */
final class ProxyServers implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
  private ToxiproxyTarget target;
  private EchoServer echo;

  ToxiproxyTarget target() {
    return target;
  }

  EchoServer echo() {
    return echo;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    target = ToxiproxyTarget.start(context);
    echo = EchoServer.start(target.upstreamHost());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    target.cleanUp();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      if (target != null) { // null if the class was skipped (no Docker engine)
        target.close();
      }
      if (echo != null) {
        echo.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
