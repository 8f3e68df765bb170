package dev.baton.agent.store;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.assertFailsWith;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.agent.Snapshots;
import dev.baton.testing.SessionStoreContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The store contract, run with two instances over one directory polling every 5 ms (so the
 * contract's second-instance tests are Genkit's PersistsAcrossStoreInstances and
 * CrossProcessStatusChange), and what only the file store promises: its layout, ID safety,
 * prefixes, retention and polling. {@link FileSessionStorePointerTest} covers session pointers.
 */
class FileSessionStoreTest extends SessionStoreContract {
  /**
   * The files of the store's own bookkeeping in a folder: the cross-process lock and the record of
   * the boots in which the pointers were verified.
   */
  static final Set<String> BOOKKEEPING = Set.of(".lock", ".verified-boots");

  private static final Duration FAST_POLL = Duration.ofMillis(5);
  private static final Function<ActionContext, String> TENANT_PREFIX =
      context -> String.valueOf(context.auth().get("tenant"));

  @TempDir Path dir;

  @Override
  protected SessionStore newStore() {
    return FileSessionStore.builder(dir).pollInterval(FAST_POLL).build();
  }

  @Override
  protected SessionStore openSecondInstance() {
    return FileSessionStore.builder(dir).pollInterval(FAST_POLL).build();
  }

  @Override
  protected boolean damage(String snapshotId, RowDamage damage) throws IOException {
    Path file = global().resolve(snapshotId + ".json");
    ObjectNode row = (ObjectNode) Json.parse(Files.readString(file));
    switch (damage) {
      case UNDECODABLE -> row.set("state", Json.parse("[1, 2]"));
      case NULL_MESSAGE -> {
        ArrayNode messages = (ArrayNode) row.at("/state/messages");
        messages.set(messages.size() - 1, Json.nodes().nullNode());
      }
      case NEGATIVE_HISTORY_LENGTH -> {
        return false; // a row file holds its messages, not a count of them
      }
    }
    Files.writeString(file, Json.write(row));
    return true;
  }

  private FileSessionStore fileStore() {
    return (FileSessionStore) store();
  }

  private Path global() {
    return dir.resolve("global");
  }

  private ActionContext tenant(String name) {
    return context().withAuth(Map.of("tenant", name));
  }

  /**
   * Every regular file under the store directory but its {@linkplain #BOOKKEEPING bookkeeping},
   * relative to it, with {@code /} separators.
   */
  private List<String> filesOnDisk() throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths
          .filter(Files::isRegularFile)
          .filter(p -> !BOOKKEEPING.contains(p.getFileName().toString()))
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .sorted()
          .toList();
    }
  }

  @Test
  void savesFromTwoInstancesOverOneFolderLoseNoUpdate() throws Exception {
    FileSessionStore other = FileSessionStore.builder(dir).build();
    save(store(), row("counter", "sess-1", at(0)));
    int perInstance = 40;
    try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
      for (SessionStore instance : List.of(store(), other)) {
        threads.submit(
            () -> {
              for (int i = 0; i < perInstance; i++) {
                instance.saveSnapshot(
                    context(),
                    "counter",
                    existing -> {
                      int n =
                          existing.state() == null || existing.state().custom() == null
                              ? 0
                              : existing.state().custom().path("n").asInt();
                      return existing.withState(
                          dev.baton.agent.SessionState.empty()
                              .withCustom(dev.baton.core.Json.object().put("n", n + 1)));
                    });
              }
              return null;
            });
      }
    }
    assertThat(store().getSnapshot(context(), "counter").state().custom().path("n").asInt())
        .isEqualTo(2 * perInstance);
  }

  // ---- construction and options ----

  @Test
  void emptyDirRejected() {
    assertThatThrownBy(() -> FileSessionStore.builder(Path.of("")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void createsMissingDirPrivately() throws IOException {
    Path missing = dir.resolve("a/b/sessions");

    FileSessionStore store = FileSessionStore.builder(missing).build();
    store.saveSnapshot(context(), "s1", existing -> row("s1", "sess-1", at(1)));

    assertThat(missing).isDirectory();
    assumeTrue(missing.getFileSystem().supportedFileAttributeViews().contains("posix"));
    for (Path created :
        List.of(missing, missing.resolve("global"), missing.resolve("global/.pointers"))) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created)))
          .as(created.toString())
          .isEqualTo("rwx------");
    }
  }

  @Test
  void optionSetTwiceRejected() {
    assertThatThrownBy(
            () -> FileSessionStore.builder(dir).pollInterval(FAST_POLL).pollInterval(FAST_POLL))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot set pollInterval more than once");
    assertThatThrownBy(
            () ->
                FileSessionStore.builder(dir).maxPersistedChainLength(2).maxPersistedChainLength(3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot set maxPersistedChainLength more than once");
    assertThatThrownBy(
            () ->
                FileSessionStore.builder(dir)
                    .snapshotPathPrefix(TENANT_PREFIX)
                    .snapshotPathPrefix(TENANT_PREFIX))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot set snapshotPathPrefix more than once");
  }

  @Test
  void updateIsCalledExactlyOncePerSave() {
    AtomicInteger calls = new AtomicInteger();

    store()
        .saveSnapshot(
            context(),
            "s1",
            existing -> {
              calls.incrementAndGet();
              return row("s1", "sess-1", at(1));
            });
    store()
        .saveSnapshot(
            context(),
            "s1",
            existing -> {
              calls.incrementAndGet();
              return null;
            });

    assertThat(calls).hasValue(2);
  }

  // ---- layout ----

  @Test
  void fileWrittenUnderDefaultPrefixNotInRoot() throws IOException {
    save(row("snap-1", "sess-1", at(1)));

    assertThat(global().resolve("snap-1.json")).isRegularFile();
    assertThat(dir.resolve("snap-1.json")).doesNotExist();
    assertThat(filesOnDisk()).containsExactly("global/.pointers/sess-1.json", "global/snap-1.json");
  }

  @Test
  void rowFileIsPrettyJsonWithTwoSpaceIndent() throws IOException {
    SessionSnapshot saved = save(row("snap-1", "sess-1", at(1)));

    String text = Files.readString(global().resolve("snap-1.json"), StandardCharsets.UTF_8);

    assertThat(text).startsWith("{\n  \"snapshotId\"");
    assertThat(text.lines().skip(1).takeWhile(line -> !line.equals("}")))
        .allSatisfy(line -> assertThat(line).matches("(  )+\\S.*"));
    assertThat(Json.read(text, SessionSnapshot.class)).isEqualTo(saved);
  }

  @Test
  void persistsAcrossStoreInstances() {
    save(row("s1", "sess-1", at(1)));
    SessionStore reopened = FileSessionStore.builder(dir).build();

    reopened.saveSnapshot(
        context(), "s2", existing -> withParentId(row("s2", "sess-1", at(2), PENDING), "s1"));
    Snapshots.abort(context(), reopened, "s2", at(3));

    assertThat(store().getSnapshot(context(), "s2"))
        .extracting(SessionSnapshot::status, SessionSnapshot::parentId)
        .containsExactly(ABORTED, "s1");
    assertThat(store().getLatestSnapshot(context(), "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s2");
  }

  @Test
  void finishReasonPersistsAcrossReopen() {
    save(row("s1", "sess-1", at(1)).withFinishReason(AgentFinishReason.INTERRUPTED));

    SessionStore reopened = FileSessionStore.builder(dir).build();

    assertThat(reopened.getSnapshot(context(), "s1"))
        .extracting(SessionSnapshot::finishReason)
        .isEqualTo(AgentFinishReason.INTERRUPTED);
  }

  @Test
  void scanSkipsUnparseableFiles() throws IOException {
    SessionSnapshot real = save(row("real", "sess-1", at(1)));
    Files.writeString(global().resolve("garbage.json"), "{not json");
    Files.writeString(global().resolve("empty.json"), "");
    Files.writeString(global().resolve("array.json"), "[1, 2]");
    Files.writeString(
        global().resolve("headless.json"), "{\"sessionId\":\"sess-1\",\"status\":\"completed\"}");
    Files.delete(global().resolve(".pointers/sess-1.json"));

    assertThat(store().getLatestSnapshot(context(), "sess-1")).isEqualTo(real);
  }

  @Test
  void unparseableRowReadByIdIsDataLoss() throws IOException {
    Files.createDirectories(global());
    Files.writeString(global().resolve("garbage.json"), "{not json");

    assertFailsWith(Status.DATA_LOSS, () -> store().getSnapshot(context(), "garbage"));
  }

  @Test
  void leftoverTempFileNeverBecomesRow() throws IOException {
    SessionSnapshot real = save(row("real", "sess-1", at(1)));
    Files.writeString(
        global().resolve("ghost.json.8317.tmp"), Json.write(row("ghost", "sess-1", at(9))));
    Files.delete(global().resolve(".pointers/sess-1.json"));

    assertThat(store().getLatestSnapshot(context(), "sess-1")).isEqualTo(real);
    assertThat(store().getSnapshot(context(), "ghost")).isNull();
    assertThat(filesOnDisk()).filteredOn(name -> name.endsWith(".tmp")).hasSize(1);
  }

  // ---- ID safety ----

  @ParameterizedTest
  @ValueSource(
      strings = {"../escape", "a/b", "a\\b", ".hidden", "foo..bar", "nul\u0000", "tab\tid"})
  void unsafeSnapshotIdRejectedOnEveryCall(String id) throws IOException {
    AtomicInteger updates = new AtomicInteger();

    assertFailsWith(Status.INVALID_ARGUMENT, () -> store().getSnapshot(context(), id));
    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () ->
            store()
                .saveSnapshot(
                    context(),
                    id,
                    existing -> {
                      updates.incrementAndGet();
                      return row("x", "sess-1", at(1));
                    }));
    assertFailsWith(
        Status.INVALID_ARGUMENT, () -> fileStore().onSnapshotStatusChange(context(), id));

    assertThat(updates).hasValue(0);
    assertThat(filesOnDisk()).isEmpty();
  }

  @Test
  void emptySnapshotIdRejectedOnRead() {
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store().getSnapshot(context(), ""));
  }

  @ParameterizedTest
  @ValueSource(strings = {"../escape", "a/b", "a\\b", ".hidden", "foo..bar", "bell\u0007"})
  void pathUnsafeSessionIdRejectedWithNoPartialRow(String sessionId) throws IOException {
    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () ->
            store().saveSnapshot(context(), "snap-1", existing -> row("snap-1", sessionId, at(1))));
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store().getLatestSnapshot(context(), sessionId));

    assertThat(filesOnDisk()).isEmpty();
  }

  // ---- prefixes ----

  @Test
  void prefixScopesReadsAndWrites() {
    FileSessionStore store =
        FileSessionStore.builder(dir).snapshotPathPrefix(TENANT_PREFIX).build();
    store.saveSnapshot(tenant("a"), "s1", existing -> row("s1", "sess-1", at(1)));

    assertThat(dir.resolve("a/s1.json")).isRegularFile();
    assertThat(store.getSnapshot(tenant("a"), "s1")).isNotNull();
    assertThat(store.getLatestSnapshot(tenant("a"), "sess-1")).isNotNull();
    assertThat(store.getSnapshot(tenant("b"), "s1")).isNull();
    assertThat(store.getLatestSnapshot(tenant("b"), "sess-1")).isNull();
    assertThat(store.onSnapshotStatusChange(tenant("b"), "s1").isEnded()).isTrue();
    assertThat(dir.resolve("b")).as("reads create nothing").doesNotExist();
    assertThat(Snapshots.abort(tenant("b"), store, "s1", at(2))).isNull();
  }

  @Test
  void nestedPrefixesAreNestedDirectories() {
    FileSessionStore store =
        FileSessionStore.builder(dir).snapshotPathPrefix(TENANT_PREFIX).build();

    store.saveSnapshot(tenant("org-42/user-7"), "s1", existing -> row("s1", "sess-1", at(1)));

    assertThat(dir.resolve("org-42/user-7/s1.json")).isRegularFile();
    assertThat(store.getLatestSnapshot(tenant("org-42/user-7"), "sess-1")).isNotNull();
    assertThat(store.getLatestSnapshot(tenant("/org-42//user-7/"), "sess-1")).isNotNull();
    assertThat(store.getLatestSnapshot(tenant("org-42"), "sess-1")).isNull();
    assertThat(store.getSnapshot(tenant("org-42"), "s1")).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"../escape", "a\\b", ".hidden", "ok/../escape", "", "/", "///"})
  void unsafeOrEmptyPrefixRejected(String prefix) throws IOException {
    FileSessionStore store =
        FileSessionStore.builder(dir.resolve("store"))
            .snapshotPathPrefix(context -> prefix)
            .build();

    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () -> store.saveSnapshot(context(), "s1", existing -> row("s1", "sess-1", at(1))));
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store.getSnapshot(context(), "s1"));
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store.getLatestSnapshot(context(), "sess-1"));
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store.onSnapshotStatusChange(context(), "s1"));

    assertThat(filesOnDisk()).isEmpty();
  }

  // ---- retention ----

  private FileSessionStore saveChain(int maxChainLength, int rows) {
    FileSessionStore store =
        FileSessionStore.builder(dir).maxPersistedChainLength(maxChainLength).build();
    for (int i = 1; i <= rows; i++) {
      SessionSnapshot next = row("s" + i, "sess-1", at(i));
      SessionSnapshot linked = i == 1 ? next : withParentId(next, "s" + (i - 1));
      store.saveSnapshot(context(), linked.snapshotId(), existing -> linked);
    }
    return store;
  }

  @Test
  void maxPersistedChainLengthKeepsNewestRows() throws IOException {
    FileSessionStore store = saveChain(2, 4);

    assertThat(filesOnDisk())
        .containsExactly("global/.pointers/sess-1.json", "global/s3.json", "global/s4.json");
    assertThat(store.getLatestSnapshot(context(), "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s4");
    Files.delete(global().resolve(".pointers/sess-1.json"));
    assertThat(store.getLatestSnapshot(context(), "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("s4");
  }

  @Test
  void maxPersistedChainLengthOneKeepsOnlyTheSavedRow() throws IOException {
    saveChain(1, 3);

    assertThat(filesOnDisk()).containsExactly("global/.pointers/sess-1.json", "global/s3.json");
  }

  @Test
  void retentionWalkStopsAtCycle() throws IOException {
    FileSessionStore store = FileSessionStore.builder(dir).maxPersistedChainLength(5).build();
    store.saveSnapshot(context(), "a", existing -> withParentId(row("a", "sess-1", at(1)), "b"));
    store.saveSnapshot(context(), "b", existing -> withParentId(row("b", "sess-1", at(2)), "a"));

    assertThat(filesOnDisk())
        .containsExactly("global/.pointers/sess-1.json", "global/a.json", "global/b.json");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1})
  void invalidChainLengthRejected(int n) {
    assertThatThrownBy(() -> FileSessionStore.builder(dir).maxPersistedChainLength(n))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---- subscriptions across instances ----

  @Test
  void crossProcessStatusChange() throws InterruptedException {
    FileSessionStore watcher = FileSessionStore.builder(dir).pollInterval(FAST_POLL).build();
    FileSessionStore writer = FileSessionStore.builder(dir).pollInterval(Duration.ZERO).build();
    save(writer, row("s1", "sess-1", at(1), PENDING));

    try (StatusSubscription subscription = watcher.onSnapshotStatusChange(context(), "s1")) {
      awaitStatus(subscription, PENDING);
      Snapshots.abort(context(), writer, "s1", at(2));
      awaitStatus(subscription, ABORTED);
      save(writer, row("s1", "sess-1", at(1), COMPLETED));
      awaitStatus(subscription, COMPLETED);
    }
  }

  @Test
  void aSaveDoesNotWaitForAPollRoundHeldOnAnotherRow() throws InterruptedException {
    CountDownLatch pollerOnS2 = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    FileSessionStore watcher =
        FileSessionStore.builder(dir)
            .pollInterval(FAST_POLL)
            .onPollRead(
                id -> {
                  if (id.equals("s2")) {
                    pollerOnS2.countDown();
                    awaitUninterruptibly(release);
                  }
                })
            .build();
    save(watcher, row("s1", "sess-1", at(1), PENDING));
    save(watcher, row("s2", "sess-1", at(2), PENDING));

    try (StatusSubscription first = watcher.onSnapshotStatusChange(context(), "s1");
        StatusSubscription second = watcher.onSnapshotStatusChange(context(), "s2")) {
      awaitStatus(first, PENDING);
      assertThat(pollerOnS2.await(10, TimeUnit.SECONDS)).isTrue();
      // The poller is held mid-round, on s2; a save of s1 publishes without waiting for it.
      CompletableFuture<Void> abort =
          CompletableFuture.runAsync(() -> Snapshots.abort(context(), watcher, "s1", at(3)));
      try {
        assertThat(abort).succeedsWithin(Duration.ofSeconds(10));
        awaitStatus(first, ABORTED);
      } finally {
        release.countDown();
      }
    }
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void pollIntervalDisabled() throws InterruptedException {
    FileSessionStore watcher = FileSessionStore.builder(dir).pollInterval(Duration.ZERO).build();
    save(row("s1", "sess-1", at(1), PENDING));

    try (StatusSubscription subscription = watcher.onSnapshotStatusChange(context(), "s1")) {
      assertThat(subscription.poll(Duration.ZERO)).isEqualTo(PENDING);
      assertThat(watcher.isPolling()).isFalse();

      Snapshots.abort(context(), store(), "s1", at(2));
      assertThat(subscription.poll(FAST_POLL.multipliedBy(20))).isNull();

      save(watcher, row("s1", "sess-1", at(1), COMPLETED));
      assertThat(subscription.poll(Duration.ZERO)).isEqualTo(COMPLETED);
    }
  }

  @Test
  void pollerRunsOnlyWhileSubscribed() {
    save(row("s1", "sess-1", at(1), PENDING));
    save(row("s2", "sess-1", at(2), PENDING));
    assertThat(fileStore().isPolling()).isFalse();

    StatusSubscription first = fileStore().onSnapshotStatusChange(context(), "s1");
    StatusSubscription second = fileStore().onSnapshotStatusChange(context(), "s2");
    fileStore().onSnapshotStatusChange(context(), "missing");
    assertThat(fileStore().isPolling()).isTrue();

    first.close();
    assertThat(fileStore().isPolling()).isTrue();
    second.close();
    assertThat(fileStore().isPolling()).isFalse();

    fileStore().onSnapshotStatusChange(context(), "missing");
    assertThat(fileStore().isPolling()).isFalse();
  }
}
