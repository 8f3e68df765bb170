package dev.baton.benchmarks;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.ai.Message;
import dev.baton.core.Json;
import dev.baton.store.postgres.PostgresSessionStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The commit of turn {@code turn} of one session through the PostgreSQL store, as an agent turn
 * saves it: a new snapshot whose parent is the previous operation's snapshot and whose history is
 * the parent's plus a question and an answer. So each commit continues its parent's history where
 * it ends and takes the store's append path, writing the two new messages. Compare turn 10 with
 * turn 200 to see whether a commit grows with the conversation.
 *
 * <p>Each operation lengthens the session, so after {@link #TURNS_PER_SESSION} operations the
 * benchmark starts a new session at turn {@code turn} (outside the timing: it empties the tables,
 * so every parameter runs on tables of the same size, and seeds the new session with one snapshot
 * holding the history of its first {@code turn - 1} turns). The measured commits are those of turns
 * {@code turn} to {@code turn + TURNS_PER_SESSION - 1}.
 *
 * <p>The store's history cache is warm, as it is in a real turn: the instance that commits a turn
 * has just read the parent snapshot to resume the session, or committed it itself.
 *
 * <p>{@code fullStateUpsert} is what a store that rewrites the whole state as JSON each turn pays,
 * for comparison: an upsert of the same snapshot with all its messages.
 *
 * <p>Each invocation is timed on its own (the setup between them is not), which is sound for
 * operations of a millisecond or so like these.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PostgresLongSessionBenchmark {
  /** How many turns a session grows by before the benchmark starts a new one. */
  static final int TURNS_PER_SESSION = 5;

  @Param({"10", "200"})
  public int turn;

  private PostgresBench bench;
  private PostgresSessionStore store;
  private String upsert;
  private String truncate;
  private String branches;

  private String sessionId;
  private int turnsTaken;
  private String parentId;
  private List<Message> history;

  /** The snapshot the next operation commits, made before it is timed. */
  private SessionSnapshot next;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    bench = new PostgresBench(2);
    store = PostgresSessionStore.builder(bench.pool).schema(bench.schema).build();
    store.getSnapshot(bench.context, "warm-up"); // creates the schema
    bench.execute(
        "CREATE TABLE " + bench.schema + ".bare_rows (id text PRIMARY KEY, row json NOT NULL)");
    upsert =
        "INSERT INTO "
            + bench.schema
            + ".bare_rows (id, row) VALUES (?, ?::json)"
            + " ON CONFLICT (id) DO UPDATE SET row = excluded.row";
    truncate =
        "TRUNCATE "
            + String.join(
                ", ",
                List.of("baton_snapshots", "baton_branches", "baton_messages", "bare_rows").stream()
                    .map(table -> bench.schema + "." + table)
                    .toList());
    branches = "SELECT count(*) FROM " + bench.schema + ".baton_branches";
    turnsTaken = TURNS_PER_SESSION;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    store.close();
    bench.close();
  }

  /** Prepares the next turn's snapshot, and a new session when this one has grown enough. */
  @Setup(Level.Invocation)
  public void nextTurn() throws SQLException {
    if (turnsTaken == TURNS_PER_SESSION) {
      newSession();
    }
    List<Message> messages = new ArrayList<>(history);
    int number = turn + turnsTaken;
    messages.add(Message.user("Tell me more, part " + number + "."));
    messages.add(Message.model("Sure, here is a short answer about part " + number + "."));
    next = row(UUID.randomUUID().toString(), parentId, List.copyOf(messages));
  }

  /** The committed snapshot is the parent of the next turn. */
  @TearDown(Level.Invocation)
  public void advance() {
    parentId = next.snapshotId();
    history = next.state().messages();
    turnsTaken++;
  }

  /**
   * Checks that the last session's commits appended to its one history branch, empties the tables
   * and seeds a session with the history of turns 1 to {@code turn - 1}.
   */
  private void newSession() throws SQLException {
    if (sessionId != null && bench.count(branches) != 1) {
      throw new IllegalStateException("the commits forked the history instead of appending to it");
    }
    bench.execute(truncate);
    sessionId = UUID.randomUUID().toString();
    List<Message> messages = new ArrayList<>();
    for (int i = 1; i < turn; i++) {
      messages.add(Message.user("Tell me more, part " + i + "."));
      messages.add(Message.model("Sure, here is a short answer about part " + i + "."));
    }
    SessionSnapshot seed = row(UUID.randomUUID().toString(), null, List.copyOf(messages));
    store.saveSnapshot(bench.context, seed.snapshotId(), existing -> seed);
    parentId = seed.snapshotId();
    history = seed.state().messages();
    turnsTaken = 0;
  }

  private SessionSnapshot row(String id, String parent, List<Message> messages) {
    Instant now = Instant.now();
    return SessionSnapshot.completed(
        id,
        sessionId,
        parent,
        now,
        null,
        SessionState.empty().withSessionId(sessionId).withMessages(messages));
  }

  @Benchmark
  public SessionSnapshot commitOfTurn() {
    SessionSnapshot row = next;
    return store.saveSnapshot(bench.context, row.snapshotId(), existing -> row);
  }

  @Benchmark
  public int fullStateUpsert() throws SQLException {
    try (Connection connection = bench.pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(upsert)) {
      statement.setString(1, next.snapshotId());
      statement.setString(2, Json.write(next));
      return statement.executeUpdate();
    }
  }
}
