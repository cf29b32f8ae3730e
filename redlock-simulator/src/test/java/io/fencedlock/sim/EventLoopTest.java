package io.fencedlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class EventLoopTest {

  @Test
  void step_equalTimes_runInScheduleOrder() {
    EventLoop loop = new EventLoop(1);
    List<String> ran = new ArrayList<>();
    loop.at(5, Event.WORLD, () -> ran.add("b"));
    loop.at(3, Event.WORLD, () -> ran.add("a"));
    loop.at(5, Event.WORLD, () -> ran.add("c"));
    while (loop.step(Long.MAX_VALUE)) {
      // run them all
    }
    assertThat(ran).containsExactly("a", "b", "c");
    assertThat(loop.now()).isEqualTo(5);
  }

  @Test
  void step_pausedActor_holdsItsEventsUntilResumedThenRunsThemInOrder() {
    EventLoop loop = new EventLoop(2);
    List<String> ran = new ArrayList<>();
    loop.pause(0);
    loop.at(1, 0, () -> ran.add("c0 first"));
    loop.at(2, 1, () -> ran.add("c1"));
    loop.at(3, 0, () -> ran.add("c0 second"));
    loop.at(10, Event.WORLD, () -> loop.resume(0));
    while (loop.step(Long.MAX_VALUE)) {
      // run them all
    }
    assertThat(ran).containsExactly("c1", "c0 first", "c0 second");
    assertThat(loop.now()).isEqualTo(10); // the held events ran at the resume, not before
  }

  @Test
  void step_cancelledEvent_neverRuns() {
    EventLoop loop = new EventLoop(1);
    List<String> ran = new ArrayList<>();
    Event e = loop.at(1, 0, () -> ran.add("cancelled"));
    e.cancelled = true;
    while (loop.step(Long.MAX_VALUE)) {
      // run them all
    }
    assertThat(ran).isEmpty();
  }
}
