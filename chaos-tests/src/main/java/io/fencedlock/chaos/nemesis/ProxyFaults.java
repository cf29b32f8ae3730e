package io.fencedlock.chaos.nemesis;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.fencedlock.chaos.fixture.LinkProxies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * Network faults through the per-link proxies: partitions (disable, or blackhole with {@code
 * timeout} toxics), latency with jitter, and {@code reset_peer}. Toxic names carry the fault id so
 * that healing one fault never removes another's toxic. Thread-safe (stateless over the proxies).
 */
public final class ProxyFaults implements FaultApplier {
  private final LinkProxies links;

  public ProxyFaults(LinkProxies links) {
    this.links = links;
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.Partition
        || fault instanceof Fault.Latency
        || fault instanceof Fault.ResetPeer;
  }

  @Override
  public void apply(int id, Fault fault) {
    try {
      if (fault instanceof Fault.Partition p) {
        cut(id, p);
      } else if (fault instanceof Fault.Latency l) {
        for (Link link : l.links()) {
          links
              .proxy(link.client(), link.node())
              .toxics()
              .latency(name(id, "latency"), ToxicDirection.DOWNSTREAM, l.millis())
              .setJitter(l.jitterMillis());
        }
      } else if (fault instanceof Fault.ResetPeer r) {
        for (Link link : r.links()) {
          links
              .proxy(link.client(), link.node())
              .toxics()
              .resetPeer(name(id, "reset"), ToxicDirection.UPSTREAM, 0);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot apply " + fault.describe(), e);
    }
  }

  private void cut(int id, Fault.Partition p) throws IOException {
    for (Link link : p.cut()) {
      Proxy proxy = links.proxy(link.client(), link.node());
      if (p.mode() == Fault.CutMode.REFUSE) {
        proxy.disable();
      } else {
        proxy.toxics().timeout(name(id, "blackhole-up"), ToxicDirection.UPSTREAM, 0);
        proxy.toxics().timeout(name(id, "blackhole-down"), ToxicDirection.DOWNSTREAM, 0);
      }
    }
  }

  @Override
  public void heal(int id, Fault fault) {
    try {
      if (fault instanceof Fault.Partition p && p.mode() == Fault.CutMode.REFUSE) {
        for (Link link : p.cut()) {
          links.proxy(link.client(), link.node()).enable();
        }
      } else if (fault instanceof Fault.Partition p) {
        removeToxics(id, p.cut(), "blackhole-up", "blackhole-down");
      } else if (fault instanceof Fault.Latency l) {
        removeToxics(id, l.links(), "latency");
      } else if (fault instanceof Fault.ResetPeer r) {
        removeToxics(id, r.links(), "reset");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot heal " + fault.describe(), e);
    }
  }

  private void removeToxics(int id, Set<Link> cut, String... kinds) throws IOException {
    for (Link link : cut) {
      for (String kind : kinds) {
        links.proxy(link.client(), link.node()).toxics().get(name(id, kind)).remove();
      }
    }
  }

  @Override
  public void healAll() {
    links.reset();
  }

  private static String name(int id, String kind) {
    return "f" + id + "-" + kind;
  }
}
