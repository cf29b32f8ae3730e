/**
 * A Toxiproxy-compatible fault proxy, so chaos tests can inject network faults with the
 * official {@code toxiproxy-java} client where the Go server cannot be installed.
 *
 * <p>Public entry points: {@link io.fencedlock.chaos.proxy.FaultProxyServer} (in-process) and
 * {@link io.fencedlock.chaos.proxy.FaultProxyMain} (standalone). Every other type is
 * package-private and may change without notice.
 *
 * <h2>Threads</h2>
 * <ul>
 *   <li>One I/O loop thread ({@code IoLoop}) owns every proxy, listener, connection, link, toxic
 *       and timer. State is confined to it, so nothing on the data path takes a lock. Timed toxics
 *       schedule work on the loop's timer queue instead of sleeping.
 *   <li>The HTTP control API runs on the JDK's {@code com.sun.net.httpserver} (one dispatcher and
 *       a small fixed pool). A request parses its JSON, then hands the operation to the loop and
 *       waits for the result, so the API never races the data path.
 * </ul>
 * The thread count is fixed: it does not grow with proxies or connections.
 *
 * <h2>Fidelity</h2>
 * Behaviour follows {@code /work/shared/design/toxiproxy-api.md}: error bodies, status codes,
 * defaults, listen resolution, toxic ordering and toxicity, and the toxics' timing and closing
 * semantics, including the quirks of toxiproxy-java 2.1.11.
 */
@NullMarked
package io.fencedlock.chaos.proxy;

import org.jspecify.annotations.NullMarked;
