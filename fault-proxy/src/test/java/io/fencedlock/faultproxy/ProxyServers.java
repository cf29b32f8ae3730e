package io.fencedlock.faultproxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;
import org.opentest4j.TestAbortedException;

/**
 * The servers a conformance test class talks to: the Toxiproxy under test (ours in this JVM or in a
 * container, or a real one from {@code TOXIPROXY_URL}) and an echo server as the proxies' upstream.
 * Started once per class, proxies deleted after each test; without a Docker engine for a container
 * target, every test is skipped (failed in CI, see {@link ToxiproxyTarget}). Register as a static
 * field with {@code @RegisterExtension}.
 */
final class ProxyServers
    implements BeforeAllCallback,
        TestInstancePreConstructCallback,
        AfterEachCallback,
        AfterAllCallback {
  private ToxiproxyTarget target;
  private EchoServer echo;
  private TestAbortedException skipped; // why there is no target (no Docker engine), if so

  ToxiproxyTarget target() {
    return target;
  }

  EchoServer echo() {
    return echo;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    try {
      target = ToxiproxyTarget.start(context);
    } catch (TestAbortedException e) {
      skipped = e; // each test is then skipped (and counted so) before it is constructed
      return;
    }
    echo = EchoServer.start(target.upstreamHost());
  }

  @Override
  public void preConstructTestInstance(
      TestInstanceFactoryContext factory, ExtensionContext context) {
    if (skipped != null) {
      throw new TestAbortedException(skipped.getMessage());
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (target != null) {
      target.cleanUp();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      if (target != null) { // null if the class is skipped (no Docker engine)
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
