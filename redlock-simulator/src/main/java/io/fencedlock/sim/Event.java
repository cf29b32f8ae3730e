package io.fencedlock.sim;

/**
 * One thing that happens at one simulated instant. Events are ordered by time, then by the order
 * they were scheduled in, so equal times never depend on anything but the program.
 */
final class Event implements Comparable<Event> {
  /** The actor of an event that belongs to no client: a node, the network, a fault. */
  static final int WORLD = -1;

  final long time;
  final long seq;

  /** The client whose thread would run this, or {@link #WORLD}; a paused client's events wait. */
  final int actor;

  final Runnable action;
  boolean cancelled;

  Event(long time, long seq, int actor, Runnable action) {
    this.time = time;
    this.seq = seq;
    this.actor = actor;
    this.action = action;
  }

  @Override
  public int compareTo(Event o) {
    int byTime = Long.compare(time, o.time);
    return byTime != 0 ? byTime : Long.compare(seq, o.seq);
  }
}
