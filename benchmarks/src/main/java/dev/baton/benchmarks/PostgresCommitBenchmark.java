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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Snapshot commits per second through the PostgreSQL store, next to the floor it cannot beat: a
 * bare single-row upsert of the same snapshot as JSON, each in its own transaction, over the same
 * pool and from as many threads. Each thread is one conversation, committing into a session of its
 * own, as concurrent users do. A store commit is a transaction of three round trips (lock the row,
 * write the row with its messages, commit); both pay one WAL flush.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(4)
@Fork(1)
public class PostgresCommitBenchmark {
  private PostgresBench bench;
  private PostgresSessionStore store;
  private SessionState state;
  private String upsert;
  private String json;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    bench = new PostgresBench(4);
    store = PostgresSessionStore.builder(bench.pool).schema(bench.schema).build();
    state =
        SessionState.empty()
            .withSessionId("session-1")
            .withMessages(List.of(Message.user("Hello!"), Message.model("Hi, how can I help?")));
    store.getSnapshot(bench.context, "warm-up"); // creates the schema
    bench.execute(
        "CREATE TABLE " + bench.schema + ".bare_rows (id text PRIMARY KEY, row json NOT NULL)");
    upsert =
        "INSERT INTO "
            + bench.schema
            + ".bare_rows (id, row) VALUES (?, ?::json)"
            + " ON CONFLICT (id) DO UPDATE SET row = excluded.row";
    json = Json.write(row(UUID.randomUUID().toString(), UUID.randomUUID().toString()));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    store.close();
    bench.close();
  }

  /** The session one benchmark thread commits into. */
  @State(Scope.Thread)
  public static class Conversation {
    final String sessionId = UUID.randomUUID().toString();
  }

  private SessionSnapshot row(String id, String sessionId) {
    Instant now = Instant.now();
    return SessionSnapshot.completed(id, sessionId, null, now, null, state);
  }

  @Benchmark
  public SessionSnapshot storeCommit(Conversation conversation) {
    String id = UUID.randomUUID().toString();
    SessionSnapshot row = row(id, conversation.sessionId);
    return store.saveSnapshot(bench.context, id, existing -> row);
  }

  @Benchmark
  public int bareUpsert() throws SQLException {
    try (Connection connection = bench.pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(upsert)) {
      statement.setString(1, UUID.randomUUID().toString());
      statement.setString(2, json);
      return statement.executeUpdate();
    }
  }
}
