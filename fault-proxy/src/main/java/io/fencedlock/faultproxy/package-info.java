/**
 * A Toxiproxy-compatible fault proxy, so chaos tests can inject network faults with the official
 * {@code toxiproxy-java} client where the Go server cannot be installed.
 *
 * <p>Public entry points: {@link io.fencedlock.faultproxy.FaultProxyServer} (in-process) and {@link
 * io.fencedlock.faultproxy.FaultProxyMain} (standalone). Every other type is package-private and
 * may change without notice.
 *
 * <h2>Threads</h2>
 *
 * <ul>
 *   <li>One I/O loop thread ({@code IoLoop}) owns every proxy, listener, connection, toxic link
 *       ({@code ToxicLink}: one direction of a connection, named after Toxiproxy's), toxic and
 *       timer. State is confined to it, so nothing on the data path takes a lock. Timed toxics
 *       schedule work on the loop's timer queue instead of sleeping.
 *   <li>One alarm thread ({@code SelectorAlarm}) wakes the loop when its next timer is due and the
 *       selector's millisecond timeout would oversleep; it touches no proxy state.
 *   <li>The HTTP control API runs on the JDK's {@code com.sun.net.httpserver} (one dispatcher and a
 *       small fixed pool). A request parses its JSON, then hands the operation to the loop and
 *       waits for the result, so the API never races the data path.
 * </ul>
 *
 * The thread count is fixed: it does not grow with proxies or connections.
 *
 * <h2>Fidelity</h2>
 *
 * Behaviour follows the Toxiproxy API as the module's {@code README.md} sets it out (read from
 * Shopify/toxiproxy's sources and from what toxiproxy-java 2.1.11 sends): error bodies, status
 * codes, defaults, listen resolution, toxic ordering and toxicity, and the toxics' timing and
 * closing semantics, including the quirks of toxiproxy-java 2.1.11. Known differences from
 * Toxiproxy:
 *
 * <ul>
 *   <li>Data that reaches a toxic after it closed its direction, or a stalled bandwidth toxic, is
 *       read and dropped or held; Go leaves it unread in the socket. Backpressure still bounds what
 *       is held (about 1 MiB per link).
 *   <li>Timers fire within about 0.1 ms of their deadline plus the machine's wake-up latency
 *       ({@code SelectorAlarm}), not with Go's runtime timers; slicer delays below 1 ms are kept.
 *   <li>Extensions: the latency toxic also takes {@code latency_us} and {@code jitter_us},
 *       microseconds added to {@code latency} and {@code jitter}. Toxiproxy ignores them (Go's JSON
 *       decoder drops unknown fields); they are echoed only when nonzero. See {@code ToxicType}.
 *   <li>Upstream host names are resolved when a proxy starts, not on every dial.
 *   <li>An interrupted reset_peer that was already waiting closes at once instead of after the rest
 *       of its wait; an interrupted slicer hands over its remaining pieces unmerged.
 *   <li>bandwidth with rate ≤ 0 stalls its direction; slicer guards average_size and size_variation
 *       of 0, where Go would panic or recurse forever.
 *   <li>Decoder error texts follow Go's wording only approximately (same prefix); unknown routes
 *       answer 404/405 with a JSON error body; {@code stream} is echoed lower-case.
 *   <li>No {@code /metrics}, no other toxic types, no config file at start-up ({@code /populate} is
 *       supported). Half-closed connections are closed fully, as in Toxiproxy.
 *   <li>Starting the API sets {@code sun.net.httpserver.nodelay=true} unless already set.
 * </ul>
 */
@NullMarked
package io.fencedlock.faultproxy;

import org.jspecify.annotations.NullMarked;
