package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ProgrammableModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions belong to the principal that started them (docs/architecture.md): another principal's
 * snapshot and session IDs answer exactly as unknown ones, in every store, and across restarts.
 */
class PrincipalSessionsTest extends AgentTestSupport {

  private ActionContext as(String principal) {
    return baton.context().withAuth(Map.of(ActionContext.PRINCIPAL, principal));
  }

  private AgentOutput turn(Agent agent, ActionContext context, String text, AgentInit init) {
    return agent.run(context, AgentInput.text(text), init, StreamCallback.discard());
  }

  @Test
  void anotherPrincipalsSnapshotAnswersAsAnUnknownOne() {
    Agent chat = chat(server().build());
    model.respondText("hi alice");
    AgentOutput alices = turn(chat, as("alice"), "hello", AgentInit.NEW);
    String snapshot = alices.snapshotId();

    ActionContext bob = as("bob");
    BatonException unknown = catchNotFound(() -> chat.snapshots(bob).get("never-was"));
    BatonException foreign = catchNotFound(() -> chat.snapshots(bob).get(snapshot));
    assertThat(foreign.getMessage()).isEqualTo(unknown.getMessage().replace("never-was", snapshot));
    catchNotFound(() -> chat.snapshots(bob).waitFor(snapshot));
    catchNotFound(() -> turn(chat, bob, "let me in", AgentInit.ofSnapshot(snapshot)));
    assertThat(chat.snapshots(bob).abort(snapshot)).isNull();
    assertThat(chat.snapshots(bob).latest(alices.sessionId())).isNull();
    // No principal is a principal of its own: it does not see alice's sessions either.
    catchNotFound(() -> chat.snapshots().get(snapshot));
    // Alice still sees hers.
    assertThat(chat.snapshots(as("alice")).get(snapshot).state().messages()).hasSize(2);
  }

  @Test
  void aSessionIdOfAnotherPrincipalStartsASessionOfYourOwn() {
    Agent chat = chat(server().build());
    model.respondText("one").respondText("two").respondText("three");
    AgentOutput alices = turn(chat, as("alice"), "my secret plan", AgentInit.NEW);

    AgentOutput bobs = turn(chat, as("bob"), "hi", AgentInit.ofSession(alices.sessionId()));
    assertThat(bobs.sessionId()).isEqualTo(alices.sessionId());
    assertThat(model.lastRequest().messages())
        .extracting(Message::text)
        .doesNotContain("my secret plan");

    turn(chat, as("alice"), "go on", AgentInit.ofSession(alices.sessionId()));
    assertThat(model.lastRequest().messages())
        .extracting(Message::text)
        .contains("my secret plan")
        .doesNotContain("hi");
  }

  @Test
  void theStoreKeepsAPrincipalsRowsUnderItsOwnKeysAndRefusesThatFormWithoutOne() {
    Agent chat = chat(server().build());
    model.respondText("hi");
    AgentOutput alices = turn(chat, as("alice"), "hello", AgentInit.NEW);

    assertThat(store.getSnapshot(baton.context(), alices.snapshotId())).isNull();
    SessionSnapshot stored =
        store.getLatestSnapshot(baton.context(), keyOf("alice", alices.sessionId()));
    assertThat(stored).isNotNull();
    assertThat(stored.snapshotId()).isEqualTo(keyOf("alice", alices.snapshotId()));
    // Spelling out the stored key without the principal is refused, reads and turns alike, and in
    // upper case too, which a store on a case-insensitive file system would resolve to the same
    // row.
    String shouted = "P" + stored.snapshotId().substring(1);
    for (Runnable call :
        List.<Runnable>of(
            () -> chat.snapshots().get(stored.snapshotId()),
            () -> turn(chat, baton.context(), "hi", AgentInit.ofSession(stored.sessionId())),
            () -> turn(chat, baton.context(), "hi", AgentInit.ofSnapshot(stored.snapshotId())),
            () -> chat.snapshots().get(shouted),
            () -> chat.snapshots().get(shouted.toUpperCase(Locale.ROOT)),
            () -> turn(chat, baton.context(), "hi", AgentInit.ofSnapshot(shouted)))) {
      assertThatThrownBy(call::run)
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    }
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void aPrincipalsDetachedRunHeartbeatsAbortsAndSettlesInItsOwnKeys() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent slow = gated("slow", entered, gate, server().build());
    ActionContext alice = as("alice");
    AgentOutput detached =
        slow.run(
            alice,
            AgentInput.text("work").withDetach(true),
            AgentInit.NEW,
            StreamCallback.discard());
    entered.await();

    assertThat(slow.snapshots(as("bob")).abort(detached.snapshotId())).isNull();
    assertThat(slow.snapshots(alice).get(detached.snapshotId()).status())
        .isEqualTo(SnapshotStatus.PENDING);
    gate.countDown();
    SessionSnapshot settled = slow.snapshots(alice).waitFor(detached.snapshotId());
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(settled.sessionId()).isEqualTo(detached.sessionId());
  }

  @Test
  void ownershipSurvivesARestartOfAFileStore(@TempDir Path dir) {
    Agent before =
        baton.defineAgent(
            "filed",
            InlinePrompt.builder().model("pm").build(),
            AgentOptions.builder().sessionStore(FileSessionStore.builder(dir).build()).build());
    model.respondText("saved");
    AgentOutput alices = turn(before, as("alice"), "remember me", AgentInit.NEW);

    Baton restarted = Baton.builder().experimental().build();
    ProgrammableModel.define(restarted.registry(), "pm").respondText("back");
    Agent after =
        restarted.defineAgent(
            "filed",
            InlinePrompt.builder().model("pm").build(),
            AgentOptions.builder().sessionStore(FileSessionStore.builder(dir).build()).build());
    ActionContext aliceAgain =
        restarted.context().withAuth(Map.of(ActionContext.PRINCIPAL, "alice"));
    ActionContext bob = restarted.context().withAuth(Map.of(ActionContext.PRINCIPAL, "bob"));

    assertThat(after.snapshots(aliceAgain).get(alices.snapshotId()).state().messages()).hasSize(2);
    catchNotFound(() -> after.snapshots(bob).get(alices.snapshotId()));
  }

  @Test
  void aPrincipalThatIsNotWellFormedIsRefusedAsAServerFaultAndReachesNoSession() {
    Agent chat = chat(server().build());
    model.respondText("carol's answer");
    // The row a lone surrogate would alias if it became "?" on its way into the hash.
    AgentOutput carols = turn(chat, as("carol-?"), "my plan", AgentInit.NEW);

    for (String principal : List.of("carol-\ud800", "carol-\udfff", "\udc00\ud800")) {
      ActionContext malformed = as(principal);
      for (Runnable call :
          List.<Runnable>of(
              () -> chat.snapshots(malformed).get(carols.snapshotId()),
              () -> chat.snapshots(malformed).latest(carols.sessionId()),
              () -> chat.snapshots(malformed).waitFor(carols.snapshotId()),
              () -> chat.snapshots(malformed).abort(carols.snapshotId()),
              () -> turn(chat, malformed, "hi", AgentInit.ofSession(carols.sessionId())),
              () -> turn(chat, malformed, "hi", AgentInit.NEW))) {
        assertThatThrownBy(call::run)
            .isInstanceOfSatisfying(
                BatonException.class,
                e -> {
                  assertThat(e.status()).as(e.getMessage()).isEqualTo(Status.INTERNAL);
                  assertThat(e.isPublic()).isFalse();
                });
      }
    }
    assertThat(model.calls()).isEqualTo(1);
    assertThat(chat.snapshots(as("carol-?")).latest(carols.sessionId()).snapshotId())
        .isEqualTo(carols.snapshotId());
  }

  @Test
  void aStoresErrorsNameIdsAsThePrincipalWroteThemNotInTheirStoredForm(@TempDir Path dir)
      throws Exception {
    Agent filed =
        baton.defineAgent(
            "filed",
            InlinePrompt.builder().model("pm").build(),
            AgentOptions.builder().sessionStore(FileSessionStore.builder(dir).build()).build());
    ActionContext alice = as("alice");
    String stored = keyOf("alice", "");

    // The file store refuses these IDs; with a principal it is handed them in the stored form.
    for (String id : List.of("../escape", "bell\u0007", "../" + "x".repeat(100))) {
      assertThat(messageOf(() -> filed.snapshots(alice).get(id)))
          .isEqualTo(messageOf(() -> filed.snapshots().get(id)))
          .doesNotContain(stored);
      assertThat(messageOf(() -> turn(filed, alice, "hi", AgentInit.ofSession(id))))
          .isEqualTo(messageOf(() -> turn(filed, baton.context(), "hi", AgentInit.ofSession(id))))
          .doesNotContain(stored);
    }
    // An ID of hers that holds the prefix itself is named in full.
    String holdsPrefix = "bell\u0007" + stored + "x";
    assertThat(messageOf(() -> filed.snapshots(alice).get(holdsPrefix)))
        .isEqualTo(messageOf(() -> filed.snapshots().get(holdsPrefix)))
        .contains(stored + "x");
    // A damaged row of hers is named as she knows it.
    model.respondText("saved");
    AgentOutput saved = turn(filed, alice, "remember me", AgentInit.NEW);
    Files.writeString(
        dir.resolve("global").resolve(keyOf("alice", saved.snapshotId()) + ".json"), "{");
    assertThat(messageOf(() -> filed.snapshots(alice).get(saved.snapshotId())))
        .contains("\"" + saved.snapshotId() + "\"")
        .doesNotContain(stored);
  }

  /** The message of the BatonException {@code call} throws. */
  private static String messageOf(Runnable call) {
    try {
      call.run();
    } catch (BatonException e) {
      return e.getMessage();
    }
    throw new AssertionError("expected a BatonException");
  }

  private static String keyOf(String principal, String id) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(principal.getBytes(StandardCharsets.UTF_8));
      return "p" + HexFormat.of().formatHex(hash, 0, 16) + "~" + id;
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static BatonException catchNotFound(Runnable call) {
    try {
      call.run();
    } catch (BatonException e) {
      assertThat(e.status()).as(e.getMessage()).isEqualTo(Status.NOT_FOUND);
      return e;
    }
    throw new AssertionError("expected NOT_FOUND");
  }
}
