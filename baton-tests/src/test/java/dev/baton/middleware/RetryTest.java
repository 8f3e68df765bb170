package dev.baton.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import org.junit.jupiter.api.Test;

class RetryTest {
  @Test
  void retryDelaysGrowAreCappedAndHonourRetryAfter() {
    Retry retry =
        Retry.builder().initialDelayMs(100).maxDelayMs(350).backoffFactor(2).noJitter(true).build();
    BatonException plain = BatonException.of(Status.UNAVAILABLE, "x");
    assertThat(retry.delayMillis(0, plain)).isEqualTo(100);
    assertThat(retry.delayMillis(1, plain)).isEqualTo(200);
    assertThat(retry.delayMillis(2, plain)).isEqualTo(350);
    BatonException limited =
        new BatonException(
            Status.RESOURCE_EXHAUSTED,
            "slow down",
            Json.object().put("retryAfterSeconds", 0.3),
            true,
            null);
    assertThat(retry.delayMillis(0, limited)).isEqualTo(300);
    Retry jittered = Retry.builder().initialDelayMs(100).build();
    for (int i = 0; i < 50; i++) {
      assertThat(jittered.delayMillis(0, plain)).isBetween(0L, 100L);
    }
  }
}
