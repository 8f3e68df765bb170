package dev.baton.internal.middleware.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a task ID the model passes is split into the configured agent and the snapshot ID. */
class TaskIdTest {
  @Test
  void aConfiguredAgentNameMustPrefixTheIdAndTheLongestWins() {
    assertThat(TaskId.parse("a:b:1234", List.of("a", "a:b"))).isEqualTo(new TaskId("a:b", "1234"));
    assertThat(TaskId.parse("a:5678", List.of("a", "a:b"))).isEqualTo(new TaskId("a", "5678"));
    for (String bad : List.of("ghost:1", "a:", "a")) {
      assertThatThrownBy(() -> TaskId.parse(bad, List.of("a", "a:b")))
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
          .hasMessageContaining("does not match any configured agent");
    }
  }
}
