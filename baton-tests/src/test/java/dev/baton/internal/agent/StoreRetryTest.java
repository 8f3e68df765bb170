package dev.baton.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StoreRetryTest {
  @Test
  void aPauseIsDrawnWithinHalfOfItEitherSideAndVaries() {
    long pause = 1_000_000;
    Set<Long> drawn = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      long jittered = StoreRetry.jittered(pause);
      assertThat(jittered).isBetween(pause / 2, pause * 3 / 2);
      drawn.add(jittered);
    }
    assertThat(drawn)
        .as("runs hit by one outage must not all come back at once")
        .hasSizeGreaterThan(1);
  }
}
