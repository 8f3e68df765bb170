package dev.baton.benchmarks;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SnapshotStatus;
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
 * The commit of turn {@code turn} of one session through the PostgreSQL store: a new snapshot whose
 * history is its parent's plus a question and an answer, as an agent turn saves it. Every operation
 * continues the same parent, so the history it carries stays the same size; compare turn 10 with
 * turn 200 to see whether a commit grows with the conversation. {@code fullStateUpsert} is what a
 * store that rewrites the whole state as JSON each turn pays, for comparison.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PostgresLongSessionBenchmark {
  @Param({"10", "200"})
  public int turn;

  private PostgresBench bench;
  private PostgresSessionStore store;
  private String parentId;
  private List<Message> history;
  private String upsert;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    bench = new PostgresBench(2);
    store = PostgresSessionStore.builder(bench.pool).schema(bench.schema).build();
    List<Message> previous = List.of();
    String previousId = null;
    for (int i = 1; i < turn; i++) {
      List<Message> messages = new ArrayList<>(previous);
      messages.add(Message.user("Tell me more, part " + i + "."));
      messages.add(Message.model("Sure, here is a short answer about part " + i + "."));
      previous = List.copyOf(messages);
      String id = UUID.randomUUID().toString();
      SessionSnapshot row = row(id, previousId, previous);
      store.saveSnapshot(bench.context, id, existing -> row);
      previousId = id;
    }
    parentId = previousId;
    List<Message> messages = new ArrayList<>(previous);
    messages.add(Message.user("And then?"));
    messages.add(Message.model("Sure, here is a short answer."));
    history = List.copyOf(messages);
    bench.execute(
        "CREATE TABLE " + bench.schema + ".bare_rows (id text PRIMARY KEY, row json NOT NULL)");
    upsert =
        "INSERT INTO "
            + bench.schema
            + ".bare_rows (id, row) VALUES (?, ?::json)"
            + " ON CONFLICT (id) DO UPDATE SET row = excluded.row";
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    store.close();
    bench.close();
  }

  private static SessionSnapshot row(String id, String parentId, List<Message> messages) {
    Instant now = Instant.now();
    return new SessionSnapshot(
        id,
        "session-1",
        parentId,
        now,
        now,
        null,
        SnapshotStatus.COMPLETED,
        null,
        null,
        new SessionState("session-1", messages, null, List.of(), null));
  }

  @Benchmark
  public SessionSnapshot commitOfTurn() {
    String id = UUID.randomUUID().toString();
    SessionSnapshot row = row(id, parentId, history);
    return store.saveSnapshot(bench.context, id, existing -> row);
  }

  @Benchmark
  public int fullStateUpsert() throws SQLException {
    String id = UUID.randomUUID().toString();
    try (Connection connection = bench.pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(upsert)) {
      statement.setString(1, id);
      statement.setString(2, Json.write(row(id, parentId, history)));
      return statement.executeUpdate();
    }
  }
}
