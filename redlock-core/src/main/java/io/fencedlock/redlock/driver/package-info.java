/**
 * What the node drivers share (not API): the Lua scripts every driver runs on the nodes, the timer
 * that bounds node requests by the node timeout, and the bookkeeping of a driver's own threads. The
 * drivers are {@link io.fencedlock.redlock.resp.RespNodeDriver} (the default: RESP by hand on one
 * I/O thread) and {@link io.fencedlock.redlock.lettuce.LettuceNodeDriver} (TLS, Unix sockets).
 */
package io.fencedlock.redlock.driver;
