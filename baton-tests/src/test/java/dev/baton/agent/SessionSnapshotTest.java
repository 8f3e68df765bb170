package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.ErrorInfo;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SessionSnapshotTest {
  private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");
  private static final SessionSnapshot PENDING = SessionSnapshot.pending("s1", "session", null, AT);

  @Test
  void aRowHasSettledPastPendingUnlessItIsAbortedWithoutAFinishReason() {
    assertThat(PENDING.isSettled()).isFalse();
    assertThat(PENDING.withStatus(SnapshotStatus.EXPIRED).isSettled()).isTrue();
    assertThat(PENDING.withStatus(null).isSettled())
        .as("an absent status reads completed")
        .isTrue();
    assertThat(
            PENDING
                .withStatus(SnapshotStatus.FAILED)
                .withError(new ErrorInfo("UNAVAILABLE", "down", null))
                .isSettled())
        .isTrue();
    SessionSnapshot aborted = PENDING.withStatus(SnapshotStatus.ABORTED);
    assertThat(aborted.isSettled()).as("its worker is still saving its progress").isFalse();
    assertThat(aborted.withFinishReason(AgentFinishReason.ABORTED).isSettled()).isTrue();
  }

  @Test
  void aDeadWorkersAbortedRowHasSettledOnceShaped() {
    SessionSnapshot aborted = PENDING.withStatus(SnapshotStatus.ABORTED);
    Duration timeout = Duration.ofSeconds(60);

    assertThat(aborted.shaped(AT.plusSeconds(30), timeout).isSettled()).isFalse();
    assertThat(aborted.shaped(AT.plusSeconds(61), timeout).isSettled()).isTrue();
  }

  @Test
  void aMapperOfTheUsersOwnWritesNoSettledField() {
    JsonNode written = JsonMapper.builder().build().valueToTree(PENDING);

    assertThat(written.has("settled")).isFalse();
    assertThat(written.path("status").asString()).isEqualTo("pending");
  }
}
