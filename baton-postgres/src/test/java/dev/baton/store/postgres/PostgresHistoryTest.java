package dev.baton.store.postgres;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Artifact;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * How the store keeps messages: each once, a turn writing only its new ones, and every snapshot
 * reading back exactly the messages it was saved with, whether its history grew, was trimmed,
 * edited, or branched. Reads go through a fresh instance, whose cache is empty, so they come from
 * the tables.
 */
class PostgresHistoryTest {
  private final ActionContext context = Baton.builder().build().context();
  private final TestSchema schema = new TestSchema(TestDatabase.shared());
  private PostgresSessionStore store = schema.open();

  @AfterEach
  void dropSchema() throws SQLException {
    schema.close();
  }

  private static List<Message> plus(List<Message> history, Message... added) {
    List<Message> longer = new ArrayList<>(history);
    longer.addAll(List.of(added));
    return longer;
  }

  private static List<Message> turn(int n) {
    return List.of(Message.user("question " + n), Message.model("answer " + n));
  }

  /** Saves a completed row of session sess-1 with these messages, created at second {@code at}. */
  private SessionSnapshot save(
      PostgresSessionStore target,
      String id,
      @Nullable String parentId,
      long at,
      List<Message> messages) {
    SessionSnapshot base =
        row(id, "sess-1", at(at))
            .withState(SessionState.empty().withSessionId("sess-1").withMessages(messages));
    SessionSnapshot next = parentId == null ? base : withParentId(base, parentId);
    return Objects.requireNonNull(target.saveSnapshot(context, id, existing -> next));
  }

  private SessionSnapshot save(String id, @Nullable String parentId, long at, List<Message> m) {
    return save(store, id, parentId, at, m);
  }

  private List<Message> readFresh(String id) {
    SessionSnapshot read = schema.open().getSnapshot(context, id);
    return Objects.requireNonNull(Objects.requireNonNull(read).state()).messages();
  }

  private long messageRows() throws SQLException {
    return schema.count("SELECT count(*) FROM {s}.baton_messages");
  }

  private long branches() throws SQLException {
    return schema.count("SELECT count(*) FROM {s}.baton_branches");
  }

  @Test
  void aRowSavedAgainAsARetriedWriteDoesWritesNoMessageTwice() throws SQLException {
    save("t1", null, 1, turn(1));
    List<Message> second = plus(turn(1), turn(2).toArray(Message[]::new));
    save("t2", "t1", 2, second);
    long messages = messageRows();

    // Saved again by this instance, then by one whose cache never saw the row: the first attempt
    // of a retried write may have committed without this instance knowing it.
    save("t2", "t1", 2, second);
    save(schema.open(), "t2", "t1", 2, second);

    assertThat(messageRows()).isEqualTo(messages);
    assertThat(branches()).isOne();
    assertThat(readFresh("t2")).isEqualTo(second);
    List<Message> third = plus(second, turn(3).toArray(Message[]::new));
    save("t3", "t2", 3, third);
    assertThat(messageRows()).isEqualTo(messages + 2);
    assertThat(readFresh("t3")).isEqualTo(third);
  }

  @Test
  void aThousandMessagesSavedOverManyTurnsAreEachStoredOnceAndReadBackExactly()
      throws SQLException {
    List<Message> history = List.of();
    List<Message> atTurn100 = List.of();
    for (int turn = 1; turn <= 200; turn++) {
      // A tool round per turn: five messages, so 1,000 in all.
      history =
          plus(
              history,
              Message.user("question " + turn),
              Message.of(Role.MODEL, Part.toolRequest("lookup", "r" + turn, Json.object())),
              Message.of(Role.TOOL, Part.toolResponse("lookup", "r" + turn, Json.object())),
              Message.model("answer " + turn),
              Message.user("thanks " + turn));
      save("t" + turn, turn == 1 ? null : "t" + (turn - 1), turn, history);
      if (turn == 100) {
        atTurn100 = history;
      }
    }

    assertThat(history).hasSize(1000);
    assertThat(messageRows()).isEqualTo(1000);
    assertThat(branches()).isOne();
    // The rows hold no messages: their state column is the small rest of the state.
    assertThat(schema.count("SELECT max(length(state::text)) FROM {s}.baton_snapshots"))
        .isLessThan(100);
    assertThat(readFresh("t200")).isEqualTo(history);
    assertThat(readFresh("t100")).isEqualTo(atTurn100);
    assertThat(schema.open().getLatestSnapshot(context, "sess-1"))
        .extracting(row -> row.state().messages())
        .isEqualTo(history);
  }

  @Test
  void withoutTheCacheMessagesReadBackFromTheDatabaseStillCountAsStored() throws SQLException {
    store = schema.open(options -> options.historyCacheSize(0));
    List<Message> history = List.of();
    for (int turn = 1; turn <= 30; turn++) {
      history = plus(history, richMessages(turn).toArray(Message[]::new));
      save("t" + turn, turn == 1 ? null : "t" + (turn - 1), turn, history);
    }

    // Every comparison went through the JSON of the database, so this also proves the round trip
    // exact: one unequal message would have forked and written the history again.
    assertThat(messageRows()).isEqualTo(history.size());
    assertThat(branches()).isOne();
    assertThat(readFresh("t30")).isEqualTo(history);
  }

  @Test
  void everyKindOfContentRoundTripsExactly() {
    ObjectNode custom =
        (ObjectNode) Json.parse("{\"z\":1,\"a\":[1.5,1e3,-0.25],\"m\":{\"y\":null}}");
    SessionState state =
        SessionState.empty()
            .withSessionId("sess-1")
            .withMessages(richMessages(1))
            .withCustom(custom)
            .withArtifacts(List.of(Artifact.text("notes.md", "# Notes\u0000")))
            .withUsage(
                GenerationUsage.builder().inputTokens(7).custom(Map.of("cost", 0.125)).build());
    SessionSnapshot saved =
        Objects.requireNonNull(
            store.saveSnapshot(
                context, "s1", existing -> row("s1", "sess-1", at(1)).withState(state)));

    SessionSnapshot read = schema.open().getSnapshot(context, "s1");

    assertThat(read).isEqualTo(saved);
    // json, unlike jsonb, keeps the text as written: key order, number forms, NUL escapes.
    assertThat(Json.write(read.state().custom())).isEqualTo(Json.write(custom));
  }

  private static List<Message> richMessages(int n) {
    return List.of(
        Message.user("text with NUL \u0000, quotes \" and emoji 🎉 " + n),
        new Message(
            Role.MODEL,
            List.of(
                Part.reasoning("thinking " + n),
                Part.toolRequest(
                    "search", "call-" + n, Json.parse("{\"q\":\"x\",\"n\":[1,2,{\"k\":true}]}"))),
            (ObjectNode) Json.parse("{\"turn\":" + n + ",\"b\":\"x\"}")),
        Message.of(
            Role.TOOL,
            Part.toolResponse("search", "call-" + n, Json.parse("{\"hits\":[]}")),
            Part.media("data:image/png;base64,iVBORw0KGgo=", "image/png"),
            Part.data(Json.parse("{\"rows\":[[1,\"a\"],[2,\"b\"]]}"))),
        Message.model("answer " + n));
  }

  @Test
  void aHistoryTrimmedAtItsEndWritesNoMessage() throws SQLException {
    List<Message> ten = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      ten.addAll(turn(i));
    }
    save("p", null, 1, ten);

    save("trimmed", "p", 2, ten.subList(0, 6));

    assertThat(messageRows()).isEqualTo(10);
    assertThat(readFresh("trimmed")).isEqualTo(ten.subList(0, 6));
    assertThat(readFresh("p")).isEqualTo(ten);
  }

  @Test
  void aTrimmedHistoryThatGoesOnForksAndEveryRowKeepsItsOwnMessages() throws SQLException {
    List<Message> ten = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      ten.addAll(turn(i));
    }
    save("p", null, 1, ten);
    save("trimmed", "p", 2, ten.subList(0, 6));

    List<Message> continued = plus(ten.subList(0, 6), Message.user("x"), Message.model("y"));
    save("continued", "trimmed", 3, continued);

    assertThat(messageRows()).isEqualTo(12);
    assertThat(readFresh("continued")).isEqualTo(continued);
    assertThat(readFresh("trimmed")).isEqualTo(ten.subList(0, 6));
    assertThat(readFresh("p")).isEqualTo(ten);

    // Trimmed again, below where the fork starts: the prefix comes from the branch it forked off.
    save("short", "continued", 4, continued.subList(0, 3));
    assertThat(readFresh("short")).isEqualTo(ten.subList(0, 3));
    assertThat(messageRows()).isEqualTo(12);
  }

  @Test
  void aHistoryTrimmedAtItsStartStartsAFreshBranch() throws SQLException {
    List<Message> six =
        plus(plus(turn(1), turn(2).toArray(Message[]::new)), turn(3).toArray(Message[]::new));
    save("p", null, 1, six);

    List<Message> window = plus(six.subList(2, 6), Message.user("next"));
    save("window", "p", 2, window);

    assertThat(messageRows()).isEqualTo(6 + 5);
    assertThat(branches()).isEqualTo(2);
    assertThat(readFresh("window")).isEqualTo(window);
  }

  @Test
  void twoBranchesFromOneParentReadBackTheirOwnMessages() throws SQLException {
    List<Message> parent = plus(turn(1), turn(2).toArray(Message[]::new));
    save("p", null, 1, parent);

    List<Message> left = plus(parent, Message.user("left"), Message.model("left answer"));
    List<Message> right = plus(parent, Message.user("right"), Message.model("right answer"));
    save("left", "p", 2, left);
    save("right", "p", 3, right);

    assertThat(messageRows()).isEqualTo(4 + 2 + 2);
    assertThat(readFresh("left")).isEqualTo(left);
    assertThat(readFresh("right")).isEqualTo(right);
    assertThat(readFresh("p")).isEqualTo(parent);
    assertThat(store.getSnapshot(context, "left").state().messages()).isEqualTo(left);
  }

  @Test
  void anEditedMessageForksAtTheEdit() throws SQLException {
    List<Message> parent =
        plus(plus(turn(1), turn(2).toArray(Message[]::new)), turn(3).toArray(Message[]::new));
    save("p", null, 1, parent);

    List<Message> edited = new ArrayList<>(parent);
    edited.set(2, Message.user("question 2, edited"));
    edited.add(Message.model("new answer"));
    save("edited", "p", 2, edited);

    assertThat(messageRows()).isEqualTo(6 + 5);
    assertThat(readFresh("edited")).isEqualTo(edited);
    assertThat(readFresh("p")).isEqualTo(parent);
  }

  @Test
  void continuingAnOlderSnapshotLeavesTheLaterOnesIntact() {
    List<List<Message>> histories = new ArrayList<>();
    List<Message> history = List.of();
    for (int i = 1; i <= 5; i++) {
      history = plus(history, turn(i).toArray(Message[]::new));
      histories.add(history);
      save("s" + i, i == 1 ? null : "s" + (i - 1), i, history);
    }

    List<Message> fromS2 = plus(histories.get(1), Message.user("another way"));
    save("s6", "s2", 6, fromS2);

    assertThat(readFresh("s6")).isEqualTo(fromS2);
    for (int i = 1; i <= 5; i++) {
      assertThat(readFresh("s" + i)).isEqualTo(histories.get(i - 1));
    }
  }

  @Test
  void concurrentContinuationsOfOneParentEachReadBackTheirOwnMessages() throws Exception {
    List<Message> parent = plus(turn(1), turn(2).toArray(Message[]::new));
    save("p", null, 1, parent);
    int children = 8;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<List<Message>>> saved = new ArrayList<>();
    try (ExecutorService threads = Executors.newFixedThreadPool(children)) {
      for (int c = 0; c < children; c++) {
        String id = "child-" + c;
        List<Message> mine = plus(parent, Message.user(id), Message.model("for " + id));
        saved.add(
            threads.submit(
                () -> {
                  start.await();
                  save(id, "p", 2, mine);
                  return mine;
                }));
      }
      start.countDown();
      for (int c = 0; c < children; c++) {
        List<Message> mine = saved.get(c).get(30, TimeUnit.SECONDS);
        assertThat(readFresh("child-" + c)).isEqualTo(mine);
      }
    }
    assertThat(messageRows()).isEqualTo(4 + 2 * children);
  }

  @Test
  void aRewriteReadsBackItsNewHistoryAndAnUnchangedOneWritesNothing() throws SQLException {
    save("s1", null, 1, turn(1));
    save("s1", null, 1, turn(1));
    assertThat(messageRows()).isEqualTo(2);

    save("s1", null, 1, turn(2));
    assertThat(readFresh("s1")).isEqualTo(turn(2));
  }

  // ---- retention ----

  private List<Message> saveChain(UnaryOperator<List<Message>> nextHistory, int rows) {
    List<Message> history = List.of();
    for (int i = 1; i <= rows; i++) {
      history = nextHistory.apply(plus(history, turn(i).toArray(Message[]::new)));
      save("s" + i, i == 1 ? null : "s" + (i - 1), i, history);
    }
    return history;
  }

  private List<String> snapshotIds() throws SQLException {
    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      if (schema.open().getSnapshot(context, "s" + i) != null) {
        ids.add("s" + i);
      }
    }
    return ids;
  }

  @Test
  void retentionKeepsTheNewestRowsOfALineageAndTheMessagesTheyNeed() throws SQLException {
    store = schema.open(options -> options.maxPersistedChainLength(2));

    List<Message> history = saveChain(h -> h, 4);

    assertThat(snapshotIds()).containsExactly("s3", "s4");
    assertThat(readFresh("s4")).isEqualTo(history);
    assertThat(readFresh("s3")).isEqualTo(history.subList(0, 6));
    // s4 still needs every message: a linear history is one branch.
    assertThat(messageRows()).isEqualTo(8);
    assertThat(schema.open().getLatestSnapshot(context, "sess-1").snapshotId()).isEqualTo("s4");
  }

  @Test
  void retentionDeletesTheMessagesNoRemainingRowNeeds() throws SQLException {
    store = schema.open(options -> options.maxPersistedChainLength(2));

    // A sliding window of the last three messages: every row starts a fresh branch.
    List<Message> last =
        saveChain(h -> List.copyOf(h.subList(Math.max(0, h.size() - 3), h.size())), 6);

    assertThat(snapshotIds()).containsExactly("s5", "s6");
    assertThat(branches()).isEqualTo(2);
    assertThat(messageRows()).isEqualTo(3 + 3);
    assertThat(readFresh("s6")).isEqualTo(last);
  }

  @Test
  void retentionKeepsABranchThatALaterBranchStillForksFrom() throws SQLException {
    store = schema.open(options -> options.maxPersistedChainLength(1));
    List<Message> parent = plus(turn(1), turn(2).toArray(Message[]::new));
    save("p", null, 1, parent);
    List<Message> sibling = plus(parent, Message.user("sibling"));
    save("sibling", "p", 2, sibling); // appends to p's branch and deletes p
    List<Message> other = plus(parent, Message.user("other"));
    save("other", null, 3, other); // no parent row: a branch of its own

    assertThat(readFresh("sibling")).isEqualTo(sibling);
    assertThat(readFresh("other")).isEqualTo(other);
    assertThat(schema.open().getSnapshot(context, "p")).isNull();
  }

  @Test
  void retentionWalkStopsAtACycle() throws SQLException {
    store = schema.open(options -> options.maxPersistedChainLength(5));
    save("a", "b", 1, turn(1));
    save("b", "a", 2, turn(2));

    assertThat(schema.count("SELECT count(*) FROM {s}.baton_snapshots")).isEqualTo(2);
  }

  @Test
  void chainLengthOneKeepsOnlyTheSavedRow() throws SQLException {
    store = schema.open(options -> options.maxPersistedChainLength(1));

    List<Message> history = saveChain(h -> h, 3);

    assertThat(snapshotIds()).containsExactly("s3");
    assertThat(readFresh("s3")).isEqualTo(history);
  }
}
