package dev.baton.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SafeIdsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "snap-1",
        "0b7c9e2a-1f4d-4c51-9a7e-3d2b8f6a1c90",
        "a.b",
        "trailing.",
        "ünï",
        "a b",
        "emoji \uD83D\uDE00"
      })
  void acceptsOrdinaryNames(String name) {
    assertThat(SafeIds.isSafe(name)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "..",
        "../escape",
        "a/b",
        "a\\b",
        ".hidden",
        "foo..bar",
        "nul\u0000",
        "\u001f",
        "lone \uD800",
        "\uDC00 lone",
        "swapped \uDE00\uD83D"
      })
  void rejectsNamesThatAreNotOneSafeSegment(String name) {
    assertThat(SafeIds.isSafe(name)).isFalse();
    assertThatThrownBy(() -> SafeIds.requireSnapshotId(name))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT);
              assertThat(e.getMessage()).startsWith("invalid snapshot ID").doesNotContain("\u0000");
            });
  }

  @ParameterizedTest
  @ValueSource(strings = {"org-42/user-7", "/org-42/user-7/", "org-42//user-7"})
  void prefixSplitsIntoSegmentsDroppingEmptyOnes(String prefix) {
    assertThat(SafeIds.prefixSegments(prefix)).containsExactly("org-42", "user-7");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "/", "///", "../escape", "ok/../escape", "a\\b", ".hidden", "x/.y"})
  void prefixWithoutSegmentsOrWithUnsafeOneRejected(String prefix) {
    assertThatThrownBy(() -> SafeIds.prefixSegments(prefix))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
  }
}
