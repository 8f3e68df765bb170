package dev.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which messages a save writes, for each way a history can relate to the stored one. */
class HistoryPlanTest {
  private static final UUID BASE = UUID.randomUUID();
  private static final UUID NEW = UUID.randomUUID();

  private static List<Message> messages(String... texts) {
    List<Message> messages = new ArrayList<>();
    for (String text : texts) {
      messages.add(Message.user(text));
    }
    return messages;
  }

  private static List<Message> plus(List<Message> history, String... texts) {
    List<Message> longer = new ArrayList<>(history);
    longer.addAll(messages(texts));
    return longer;
  }

  private static HistoryPlan decide(List<Message> next, HistoryPlan.Base base) {
    return HistoryPlan.decide(next, base, () -> NEW);
  }

  @Test
  void noMessagesNeedNoBranch() {
    assertThat(HistoryPlan.decide(List.of(), null, () -> NEW)).isEqualTo(new HistoryPlan.None());
  }

  @Test
  void withoutABaseEveryMessageGoesToANewRootBranch() {
    assertThat(HistoryPlan.decide(messages("a", "b"), null, () -> NEW))
        .isEqualTo(new HistoryPlan.Fork(NEW, null, 0, 2));
  }

  @Test
  void aContinuationAppendsOnlyItsNewMessages() {
    List<Message> stored = messages("a", "b");

    assertThat(decide(plus(stored, "c", "d"), new HistoryPlan.Base(BASE, stored, 2)))
        .isEqualTo(new HistoryPlan.Append(BASE, 2, 4));
  }

  @Test
  void equalMessagesCountAsStoredEvenWhenTheyAreOtherInstances() {
    assertThat(
            decide(
                plus(messages("a", "b"), "c"), new HistoryPlan.Base(BASE, messages("a", "b"), 2)))
        .isEqualTo(new HistoryPlan.Append(BASE, 2, 3));
  }

  @Test
  void theSameOrATrimmedHistoryWritesNothing() {
    List<Message> stored = messages("a", "b", "c");
    HistoryPlan.Base base = new HistoryPlan.Base(BASE, stored, 3);

    assertThat(decide(stored, base)).isEqualTo(new HistoryPlan.Reuse(BASE, 3));
    assertThat(decide(stored.subList(0, 1), base)).isEqualTo(new HistoryPlan.Reuse(BASE, 1));
  }

  @Test
  void aSecondContinuationOfOneParentForksWhereTheParentEnds() {
    List<Message> parent = messages("a", "b");
    // A sibling has already appended to the branch: it now holds 4 messages.
    HistoryPlan.Base base = new HistoryPlan.Base(BASE, parent, 4);

    assertThat(decide(plus(parent, "x"), base)).isEqualTo(new HistoryPlan.Fork(NEW, BASE, 2, 3));
  }

  @Test
  void aDivergingHistoryForksAtTheFirstDifference() {
    HistoryPlan.Base base = new HistoryPlan.Base(BASE, messages("a", "b", "c", "d"), 4);

    assertThat(decide(messages("a", "b", "edited", "d", "e"), base))
        .isEqualTo(new HistoryPlan.Fork(NEW, BASE, 2, 5));
    assertThat(decide(messages("a", "b", "x"), base))
        .isEqualTo(new HistoryPlan.Fork(NEW, BASE, 2, 3));
  }

  @Test
  void aHistoryTrimmedAtItsStartSharesNothingAndStartsARootBranch() {
    HistoryPlan.Base base = new HistoryPlan.Base(BASE, messages("a", "b", "c"), 3);

    assertThat(decide(messages("b", "c", "d"), base))
        .isEqualTo(new HistoryPlan.Fork(NEW, null, 0, 3));
  }
}
