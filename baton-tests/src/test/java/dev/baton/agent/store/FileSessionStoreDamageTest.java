package dev.baton.agent.store;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.InlinePrompt;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.ProgrammableModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged row is never silently forgotten: the session resumes from its newest intact row, and a
 * session whose rows are all unreadable is {@code DATA_LOSS}, never a new, empty session.
 */
class FileSessionStoreDamageTest {
  @TempDir Path dir;

  private final Baton baton = Baton.builder().experimental().build();
  private final ActionContext context = baton.context();

  private FileSessionStore store() {
    return FileSessionStore.builder(dir).build();
  }

  private Path file(String snapshotId) {
    return dir.resolve("global").resolve(snapshotId + ".json");
  }

  private Path pointer(String sessionId) {
    return dir.resolve("global/.pointers").resolve(sessionId + ".json");
  }

  private void save(FileSessionStore store, SessionSnapshot row) {
    store.saveSnapshot(context, row.snapshotId(), existing -> row);
  }

  /** The first half of a row's file, as a disk that lost the rest would leave it. */
  private void cutShort(String snapshotId) throws IOException {
    String text = Files.readString(file(snapshotId));
    Files.writeString(file(snapshotId), text.substring(0, text.length() / 2));
  }

  private void assertDataLossWithoutPath(ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.DATA_LOSS);
              assertThat(e.isPublic()).isTrue();
              assertThat(e.getMessage()).doesNotContain(dir.toString()).doesNotContain(".json");
            });
  }

  @Test
  void aDamagedNewestRowIsPassedOverForTheNewestIntactOne() throws IOException {
    FileSessionStore store = store();
    save(store, row("s1", "sess-1", at(1)));
    save(store, withParentId(row("s2", "sess-1", at(2)), "s1"));
    save(store, withParentId(row("s3", "sess-1", at(3)), "s2"));
    Files.writeString(file("s3"), "{\"snapshotId\": \"s3\", \"sessionId\": \"sess-1\", \"crea");
    Files.writeString(
        file("s2"),
        "{\"snapshotId\": \"s2\", \"sessionId\": \"sess-1\","
            + " \"createdAt\": \""
            + at(2)
            + "\", \"status\": \"no-such-status\", \"state\": 7}");

    assertThat(store.getLatestSnapshot(context, "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s1");
    assertThat(Json.parse(Files.readString(pointer("sess-1"))).path("currentSnapshotId").asString())
        .isEqualTo("s1");
  }

  @Test
  void aSessionWhoseOnlyRowIsDamagedIsDataLossNotANewSession() throws IOException {
    FileSessionStore store = store();
    save(store, row("s1", "sess-1", at(1)));
    Files.writeString(file("s1"), "{not json");

    assertDataLossWithoutPath(() -> store.getLatestSnapshot(context, "sess-1"));
  }

  @Test
  void aRowCutShortStillNamesItsSessionWithoutAPointer() throws IOException {
    FileSessionStore store = store();
    save(store, row("s1", "sess-1", at(1)));
    save(store, row("other", "sess-2", at(2)));
    cutShort("s1");
    Files.delete(pointer("sess-1"));

    assertDataLossWithoutPath(() -> store.getLatestSnapshot(context, "sess-1"));
    assertThat(store.getLatestSnapshot(context, "sess-2")).isNotNull();
    assertThat(store.getLatestSnapshot(context, "sess-3")).isNull();
  }

  @Test
  void aFileThatNamesNoSessionIsNoOnesLoss() throws IOException {
    FileSessionStore store = store();
    save(store, row("s1", "sess-1", at(1)));
    Files.writeString(file("s1"), "");
    Files.delete(pointer("sess-1"));

    assertThat(store.getLatestSnapshot(context, "sess-1")).isNull();
  }

  @Test
  void aRowReadByIdThatIsDamagedIsPublicDataLossWithoutAPath() throws IOException {
    FileSessionStore store = store();
    save(store, row("s1", "sess-1", at(1)));
    cutShort("s1");

    assertDataLossWithoutPath(() -> store.getSnapshot(context, "s1"));
  }

  @Test
  void aRowWhoseContentNamesAnotherSnapshotIsDataLoss() throws IOException {
    FileSessionStore store = store();
    save(store, row("a", "sess-1", at(1)));
    save(store, row("b", "sess-1", at(2)));
    Files.copy(file("b"), file("a"), StandardCopyOption.REPLACE_EXISTING);
    Files.delete(file("b"));
    Files.delete(pointer("sess-1"));

    assertDataLossWithoutPath(() -> store.getSnapshot(context, "a"));
    assertDataLossWithoutPath(() -> store.getLatestSnapshot(context, "sess-1"));
  }

  @Test
  void aRowWhoseContentNamesAnotherSnapshotIsPassedOverByTheScan() throws IOException {
    FileSessionStore store = store();
    save(store, row("s1", "sess-1", at(1)));
    save(store, row("b", "sess-1", at(2)));
    Files.move(file("b"), file("a"));
    Files.delete(pointer("sess-1"));

    assertThat(store.getLatestSnapshot(context, "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s1");
  }

  @Test
  void resumingASessionWhoseRowsAreAllDamagedFailsTheInvocation() throws IOException {
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
    model.respondText("Hello! What shall we plan?");
    Agent agent =
        baton.defineAgent(
            "planner",
            InlinePrompt.builder().model("pm").build(),
            AgentOptions.builder().sessionStore(store()).build());
    String sessionId = agent.runText("Plan my trip").sessionId();
    try (var rows = Files.list(dir.resolve("global"))) {
      for (Path row : rows.filter(Files::isRegularFile).toList()) {
        Files.writeString(row, "{\"sessionId\": \"" + sessionId + "\", \"sta");
      }
    }

    assertThatThrownBy(() -> agent.runText("Where were we?", AgentInit.ofSession(sessionId)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.DATA_LOSS));
    assertThat(model.calls()).isEqualTo(1);
  }
}
