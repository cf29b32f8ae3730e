package io.fencedlock.faultproxy;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.fencedlock.testkit.support.RawHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Toxiproxy server under test: the real one at {@code TOXIPROXY_URL} if that is set
 * (it must run on this machine, since proxies listen and echo servers bind on loopback),
 * otherwise an in-process {@link FaultProxyServer} with a logged seed (fix it with
 * {@code -Dfencedlock.proxy.seed=N}). Tracks the proxies it creates and deletes them on
 * {@link #cleanUp()}, so tests leave a shared server as they found it.
 *
 * <p>Not thread-safe: one per test class, used from the test thread.
 */
final class ToxiproxyTarget implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ToxiproxyTarget.class);
    private static final AtomicInteger NAMES = new AtomicInteger();

    private final FaultProxyServer server;
    private final String host;
    private final int port;
    private final List<String> created = new ArrayList<>();
    private final String runId = Integer.toHexString(new SecureRandom().nextInt(1 << 20));

    private ToxiproxyTarget(FaultProxyServer server, String host, int port) {
        this.server = server;
        this.host = host;
        this.port = port;
    }

    static ToxiproxyTarget start() {
        String url = System.getenv("TOXIPROXY_URL");
        if (url != null && !url.isBlank()) {
            URI uri = URI.create(url.trim());
            log.info("conformance tests against the Toxiproxy at {}", url);
            return new ToxiproxyTarget(null, uri.getHost(), uri.getPort() < 0 ? 8474 : uri.getPort());
        }
        long seed = Long.getLong("fencedlock.proxy.seed", new SecureRandom().nextLong());
        FaultProxyServer server = FaultProxyServer.start(new InetSocketAddress("127.0.0.1", 0), seed);
        log.info("conformance tests against the in-process fault proxy at {} (seed {})", server.url(), seed);
        return new ToxiproxyTarget(server, "127.0.0.1", server.port());
    }

    boolean inProcess() {
        return server != null;
    }

    String url() {
        return "http://" + host + ":" + port;
    }

    ToxiproxyClient client() {
        return new ToxiproxyClient(host, port);
    }

    RawHttp raw() {
        return new RawHttp(url());
    }

    /** A proxy name unique to this run, tracked for clean-up. */
    String uniqueName(String base) {
        String name = base + "-" + runId + "-" + NAMES.incrementAndGet();
        created.add(name);
        return name;
    }

    /** Creates a proxy on an ephemeral loopback port in front of {@code upstream}. */
    Proxy createProxy(ToxiproxyClient client, String base, String upstream) {
        try {
            return client.createProxy(uniqueName(base), "127.0.0.1:0", upstream);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Connects a test client to a proxy's listen address. */
    static TcpClient connect(Proxy proxy) {
        return TcpClient.connect("127.0.0.1", listenPort(proxy.getListen()));
    }

    /** The port of a listen address; the part after the last colon. */
    static int listenPort(String listen) {
        return Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
    }

    /** Deletes every proxy this target created; already-deleted ones are fine. */
    void cleanUp() {
        RawHttp raw = raw();
        for (String name : created) {
            int status = raw.delete("/proxies/" + name).status();
            if (status != 204 && status != 404) {
                throw new IllegalStateException("cleaning up proxy " + name + " got HTTP " + status);
            }
        }
        created.clear();
    }

    @Override
    public void close() {
        try {
            cleanUp();
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }
}
