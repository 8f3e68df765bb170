package dev.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.Baton;
import dev.baton.core.ActionContext;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A thousand concurrent read-modify-writes of one row, half from this JVM and half from another,
 * each on several threads, lose none.
 */
class PostgresLostUpdateTest {
  private static final int PER_JVM = 500;
  private static final int THREADS = 4;

  @Test
  void aThousandConcurrentReadModifyWritesFromTwoJvmsLoseNone() throws Exception {
    ActionContext context = Baton.builder().build().context();
    try (HikariDataSource pool = Counter.pool(TestDatabase.url(), THREADS + 1);
        TestSchema schema = new TestSchema(pool)) {
      PostgresSessionStore store = schema.open();
      store.saveSnapshot(context, "counter", existing -> Counter.row("counter", 0));

      try (ChildJvm other =
          ChildJvm.start(
              CounterWorker.class,
              TestDatabase.url(),
              schema.name,
              "counter",
              String.valueOf(PER_JVM),
              String.valueOf(THREADS))) {
        other.await("READY", Duration.ofSeconds(30));
        other.send("GO");
        int savedHere = Counter.increment(store, context, "counter", PER_JVM, THREADS);
        int savedThere = Integer.parseInt(other.await("DONE", Duration.ofSeconds(60)));
        assertThat(other.awaitExit(Duration.ofSeconds(30))).isZero();

        assertThat(savedHere).isEqualTo(PER_JVM);
        assertThat(savedThere).isEqualTo(PER_JVM);
        assertThat(Counter.valueOf(schema.open().getSnapshot(context, "counter")))
            .isEqualTo(2 * PER_JVM);
      }
    }
  }
}
