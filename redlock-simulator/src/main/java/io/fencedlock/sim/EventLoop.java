package io.fencedlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Simulated time and the one thread everything runs on: a queue of {@link Event}s ordered by (time,
 * sequence number). Nothing happens between events, so the invariants are checked after each.
 * Events of a paused client are held (its threads do not run) and run, in order, when it resumes;
 * its clock keeps going meanwhile. Not thread-safe, on purpose.
 */
final class EventLoop {
  private final PriorityQueue<Event> queue = new PriorityQueue<>();
  private final boolean[] paused;
  private final List<List<Event>> held;
  private long now;
  private long seq;
  private long steps;

  EventLoop(int actors) {
    this.paused = new boolean[actors];
    this.held = new ArrayList<>(actors);
    for (int i = 0; i < actors; i++) {
      held.add(new ArrayList<>());
    }
  }

  long now() {
    return now;
  }

  long steps() {
    return steps;
  }

  /** Schedules {@code action} for {@code actor} at {@code time} (never before now). */
  Event at(long time, int actor, Runnable action) {
    Event e = new Event(Math.max(time, now), seq++, actor, action);
    queue.add(e);
    return e;
  }

  Event after(long delayNanos, int actor, Runnable action) {
    return at(now + delayNanos, actor, action);
  }

  boolean isPaused(int actor) {
    return paused[actor];
  }

  void pause(int actor) {
    paused[actor] = true;
  }

  /** Resumes {@code actor}: what it was sent meanwhile runs now, in the order it arrived. */
  void resume(int actor) {
    if (!paused[actor]) {
      return;
    }
    paused[actor] = false;
    List<Event> waiting = held.get(actor);
    for (Event e : waiting) {
      if (!e.cancelled) {
        at(now, actor, e.action);
      }
    }
    waiting.clear();
  }

  /** The time of the next event, or Long.MAX_VALUE if none is left. */
  long nextTime() {
    while (!queue.isEmpty() && queue.peek().cancelled) {
      queue.poll();
    }
    return queue.isEmpty() ? Long.MAX_VALUE : queue.peek().time;
  }

  /**
   * Runs the next event if it is due by {@code until}; returns false if there is none. An event of
   * a paused actor is held instead (that counts as a step too: nothing ran).
   */
  boolean step(long until) {
    long next = nextTime();
    if (next == Long.MAX_VALUE || next > until) {
      return false;
    }
    Event e = queue.poll();
    now = e.time;
    steps++;
    if (e.actor >= 0 && paused[e.actor]) {
      held.get(e.actor).add(e);
      return true;
    }
    e.action.run();
    return true;
  }

  /** Moves the clock to {@code time} when nothing is left before it. */
  void advanceTo(long time) {
    if (time > now) {
      now = time;
    }
  }
}
