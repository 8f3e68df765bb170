package dev.baton.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.Baton;
import dev.baton.core.ActionContext;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The other JVM of the lost-update test. Arguments: JDBC URL, schema, counter row ID, increments,
 * threads. It opens its own pool and store, prints {@code READY}, waits for {@code GO} on its input
 * so both JVMs start together, increments, prints {@code DONE <saves>} and exits.
 */
final class CounterWorker {
  private CounterWorker() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String schema = args[1];
    String id = args[2];
    int increments = Integer.parseInt(args[3]);
    int threads = Integer.parseInt(args[4]);
    ActionContext context = Baton.builder().build().context();
    try (HikariDataSource pool = Counter.pool(url, threads);
        PostgresSessionStore store = PostgresSessionStore.builder(pool).schema(schema).build()) {
      store.getSnapshot(context, id); // connects before the start, so both JVMs start warm
      System.out.println("READY");
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      if (!"GO".equals(in.readLine())) {
        throw new IllegalStateException("expected GO");
      }
      int saved = Counter.increment(store, context, id, increments, threads);
      System.out.println("DONE " + saved);
    }
  }
}
