package dev.baton.agent.store;

import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.internal.agent.Snapshots;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Session pointers as one store in one boot sees them: written and moved forward by new rows only,
 * trusted on the fast path when whole, and replaced by what a scan finds when missing, stale,
 * damaged or written without a checksum (as Genkit Go writes them).
 */
class FileSessionStorePointerTest {
  @TempDir Path dir;

  private final Baton baton = Baton.builder().experimental().build();
  private final ActionContext context = baton.context();
  private FileSessionStore store;

  @BeforeEach
  void openStore() {
    store = FileSessionStore.builder(dir).build();
  }

  private SessionSnapshot save(SessionSnapshot row) {
    return store.saveSnapshot(context, row.snapshotId(), existing -> row);
  }

  private Path global() {
    return dir.resolve("global");
  }

  private JsonNode pointerOf(String sessionId) throws IOException {
    return Json.parse(Files.readString(global().resolve(".pointers").resolve(sessionId + ".json")));
  }

  /** Points a session at a row as Genkit Go writes a pointer: without a checksum. */
  private void pointTo(String sessionId, String snapshotId) throws IOException {
    Files.writeString(
        global().resolve(".pointers").resolve(sessionId + ".json"),
        Json.write(
            Json.object()
                .put("currentSnapshotId", snapshotId)
                .put("currentCreatedAt", at(1).toString())
                .put("updatedAt", at(1).toString())));
  }

  @Test
  void sessionPointerWrittenAndTracksLatest() throws IOException {
    save(row("s1", "sess-1", at(1), PENDING));
    assertThat(pointerOf("sess-1").path("currentSnapshotId").asString()).isEqualTo("s1");
    assertThat(pointerOf("sess-1").path("currentCreatedAt").asString()).isEqualTo(at(1).toString());
    assertThat(pointerOf("sess-1").path("updatedAt").isString()).isTrue();
    assertThat(pointerOf("sess-1").path("crc32c").asString()).matches("[0-9a-f]{8}");

    save(row("s2", "sess-1", at(2)));
    Snapshots.abort(context, store, "s1", at(3));

    assertThat(pointerOf("sess-1").path("currentSnapshotId").asString()).isEqualTo("s2");
  }

  @Test
  void fastPathTrustsAWholePointerWrittenInThisBoot() throws IOException {
    save(row("s1", "sess-1", at(1)));
    Path pointer = global().resolve(".pointers/sess-1.json");
    byte[] namingS1 = Files.readAllBytes(pointer);
    save(row("s2", "sess-1", at(2)));

    Files.write(pointer, namingS1);

    assertThat(store.getLatestSnapshot(context, "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s1");
  }

  @Test
  void pointerWithoutChecksumIsVerifiedByAScanAndRewritten() throws IOException {
    save(row("s1", "sess-1", at(1)));
    save(row("s2", "sess-1", at(2)));

    pointTo("sess-1", "s1");

    assertThat(store.getLatestSnapshot(context, "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s2");
    assertThat(pointerOf("sess-1").path("currentSnapshotId").asString()).isEqualTo("s2");
    assertThat(pointerOf("sess-1").path("crc32c").isString()).isTrue();
  }

  @Test
  void rewriteNeverMovesPointer() throws IOException {
    save(row("s1", "sess-1", at(1)));
    save(row("s2", "sess-1", at(2), PENDING));
    pointTo("sess-1", "s1");

    Snapshots.heartbeat(context, store, "s2", at(3));
    Snapshots.abort(context, store, "s2", at(4));

    assertThat(pointerOf("sess-1").path("currentSnapshotId").asString()).isEqualTo("s1");
  }

  @Test
  void missingPointerSelfHeals() throws IOException {
    save(row("s1", "sess-1", at(1)));
    save(row("s2", "sess-1", at(2)));
    Files.delete(global().resolve(".pointers/sess-1.json"));

    assertThat(store.getLatestSnapshot(context, "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s2");
    assertThat(pointerOf("sess-1").path("currentSnapshotId").asString()).isEqualTo("s2");
  }

  @ParameterizedTest
  @ValueSource(strings = {"gone", "other", "../escape", "corrupt"})
  void stalePointerFallsBackToScan(String pointedAt) throws IOException {
    save(row("s1", "sess-1", at(1)));
    save(row("s2", "sess-1", at(2)));
    save(row("other", "sess-2", at(3)));
    if (pointedAt.equals("corrupt")) {
      Files.writeString(global().resolve(".pointers/sess-1.json"), "{\"currentSnapshotId\":");
    } else {
      pointTo("sess-1", pointedAt);
    }

    assertThat(store.getLatestSnapshot(context, "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s2");
    assertThat(pointerOf("sess-1").path("currentSnapshotId").asString()).isEqualTo("s2");
  }

  @Test
  void pointerDirectoryIsNotPartOfScan() throws IOException {
    SessionSnapshot real = save(row("real", "sess-1", at(1)));
    Files.delete(global().resolve(".pointers/sess-1.json"));
    Files.writeString(
        global().resolve(".pointers/impostor.json"), Json.write(row("impostor", "sess-1", at(9))));

    assertThat(store.getLatestSnapshot(context, "sess-1")).isEqualTo(real);
  }

  @Test
  void backdatedNewRowDoesNotAdvancePointer() throws IOException {
    save(row("s2", "sess-1", at(2)));
    save(row("s1", "sess-1", at(1)));
    save(row("s0", "sess-1", at(2)));

    assertThat(pointerOf("sess-1").path("currentSnapshotId").asString()).isEqualTo("s2");
    assertThat(store.getLatestSnapshot(context, "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s2");
  }
}
