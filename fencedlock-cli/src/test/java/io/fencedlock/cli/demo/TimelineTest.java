package io.fencedlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.cli.demo.TimelineEvent.PauseBegan;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class TimelineTest {

  @Test
  void nowMillis_clockAdvanced_isRelativeToStart() {
    AtomicLong nanos = new AtomicLong(TimeUnit.SECONDS.toNanos(1000));
    Timeline timeline = new Timeline(nanos::get);

    nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1234));

    assertThat(timeline.nowMillis()).isEqualTo(1234);
  }

  @Test
  void events_afterAdds_isAnImmutableSnapshotInOrder() {
    Timeline timeline = new Timeline(() -> 0);
    timeline.add(new PauseBegan(1, "client 1"));
    var snapshot = timeline.events();
    timeline.add(new PauseBegan(2, "client 2"));

    assertThat(snapshot).extracting(TimelineEvent::actor).containsExactly("client 1");
    assertThat(timeline.events()).extracting(TimelineEvent::atMillis).containsExactly(1L, 2L);
  }

  @Test
  void line_event_showsTimeActorAndDescription() {
    assertThat(ConsoleReport.line(new PauseBegan(63, "client 1")))
        .isEqualTo("     63 ms  client 1  stalls: simulated stop-the-world GC pause begins");
  }
}
