package io.fencedlock.chaos.nemesis;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import eu.rekawek.toxiproxy.model.ToxicList;
import io.fencedlock.chaos.fixture.LinkProxies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * Network faults through the per-link proxies (to nodes and to the storage service): partitions
 * (disable, or blackhole with {@code timeout} toxics), latency with jitter, {@code reset_peer} and
 * any other toxic ({@link Fault.Toxic}: bandwidth, slicer, one-way timeouts, toxicity below 1).
 * Toxic names carry the fault id so that healing one fault never removes another's toxic, and
 * faults on the same link may overlap. Thread-safe.
 */
public final class ProxyFaults implements FaultApplier {
  private final LinkProxies links;

  /** How many partitions currently refuse each link: overlapping faults re-enable it last. */
  private final java.util.Map<Link, Integer> refusing = new java.util.HashMap<>();

  public ProxyFaults(LinkProxies links) {
    this.links = links;
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.Partition
        || fault instanceof Fault.Latency
        || fault instanceof Fault.ResetPeer
        || fault instanceof Fault.Toxic;
  }

  @Override
  public String apply(int id, Fault fault) {
    try {
      if (fault instanceof Fault.Partition p) {
        cut(id, p);
      } else if (fault instanceof Fault.Latency l) {
        for (Link link : l.links()) {
          toxics(link)
              .latency(name(id, "latency"), ToxicDirection.DOWNSTREAM, l.millis())
              .setJitter(l.jitterMillis());
        }
      } else if (fault instanceof Fault.ResetPeer r) {
        for (Link link : r.links()) {
          toxics(link).resetPeer(name(id, "reset"), ToxicDirection.UPSTREAM, 0);
        }
      } else if (fault instanceof Fault.Toxic t) {
        for (Link link : t.links()) {
          addToxic(toxics(link), name(id, t.type()), t);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot apply " + fault.describe(), e);
    }
    return "";
  }

  private ToxicList toxics(Link link) {
    return links.proxy(link.client(), link.node()).toxics();
  }

  private static void addToxic(ToxicList toxics, String name, Fault.Toxic t) throws IOException {
    ToxicDirection dir = t.upstream() ? ToxicDirection.UPSTREAM : ToxicDirection.DOWNSTREAM;
    eu.rekawek.toxiproxy.model.Toxic toxic =
        switch (t.type()) {
          case "latency" ->
              toxics.latency(name, dir, attr(t, "latency")).setJitter(attr(t, "jitter"));
          case "bandwidth" -> toxics.bandwidth(name, dir, attr(t, "rate"));
          case "slicer" ->
              toxics
                  .slicer(name, dir, attr(t, "average_size"), attr(t, "delay"))
                  .setSizeVariation(attr(t, "size_variation"));
          case "timeout" -> toxics.timeout(name, dir, attr(t, "timeout"));
          case "limit_data" -> toxics.limitData(name, dir, attr(t, "bytes"));
          case "slow_close" -> toxics.slowClose(name, dir, attr(t, "delay"));
          case "reset_peer" -> toxics.resetPeer(name, dir, attr(t, "timeout"));
          default -> throw new IllegalArgumentException("unknown toxic type " + t.type());
        };
    if (t.toxicity() < 1) {
      toxic.setToxicity(t.toxicity());
    }
  }

  private static long attr(Fault.Toxic t, String key) {
    return t.attributes().getOrDefault(key, 0L);
  }

  private void cut(int id, Fault.Partition p) throws IOException {
    for (Link link : p.cut()) {
      Proxy proxy = links.proxy(link.client(), link.node());
      if (p.mode() == Fault.CutMode.REFUSE) {
        synchronized (refusing) {
          if (refusing.merge(link, 1, Integer::sum) == 1) {
            proxy.disable();
          }
        }
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
          synchronized (refusing) {
            Integer left = refusing.computeIfPresent(link, (k, n) -> n > 1 ? n - 1 : null);
            if (left == null) {
              links.proxy(link.client(), link.node()).enable();
            }
          }
        }
      } else if (fault instanceof Fault.Partition p) {
        removeToxics(id, p.cut(), "blackhole-up", "blackhole-down");
      } else if (fault instanceof Fault.Latency l) {
        removeToxics(id, l.links(), "latency");
      } else if (fault instanceof Fault.ResetPeer r) {
        removeToxics(id, r.links(), "reset");
      } else if (fault instanceof Fault.Toxic t) {
        removeToxics(id, t.links(), t.type());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot heal " + fault.describe(), e);
    }
  }

  private void removeToxics(int id, Set<Link> cut, String... kinds) throws IOException {
    for (Link link : cut) {
      for (String kind : kinds) {
        toxics(link).get(name(id, kind)).remove();
      }
    }
  }

  @Override
  public void healAll() {
    synchronized (refusing) {
      refusing.clear();
    }
    links.reset();
  }

  private static String name(int id, String kind) {
    return "f" + id + "-" + kind;
  }
}
