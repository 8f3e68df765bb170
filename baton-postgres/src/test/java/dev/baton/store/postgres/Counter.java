package dev.baton.store.postgres;

import static dev.baton.testing.SnapshotFixtures.at;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A counter kept in a snapshot's custom state and incremented by read-modify-writes, for the
 * lost-update test and its child JVM: if two increments ever read the same value, one is lost and
 * the count comes out short.
 */
final class Counter {
  private Counter() {}

  /** A pool whose commits skip the WAL flush: the lost-update test is about locking, not disks. */
  static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setConnectionInitSql("SET synchronous_commit = off");
    return new HikariDataSource(config);
  }

  static SessionSnapshot row(String id, int count) {
    return dev.baton.testing.SnapshotFixtures.row(id, "counter-session", at(1))
        .withState(SessionState.empty().withCustom(Json.object().put("count", count)));
  }

  static int valueOf(@Nullable SessionSnapshot row) {
    SessionState state = row == null ? null : row.state();
    return state == null || state.custom() == null ? 0 : state.custom().path("count").asInt();
  }

  /**
   * Runs {@code increments} increments of the counter on {@code threads} threads; returns how many
   * saves succeeded.
   */
  static int increment(
      SessionStore store, ActionContext context, String id, int increments, int threads)
      throws Exception {
    List<Future<Integer>> workers = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      for (int t = 0; t < threads; t++) {
        int share = increments / threads + (t < increments % threads ? 1 : 0);
        workers.add(
            pool.submit(
                () -> {
                  int saved = 0;
                  for (int i = 0; i < share; i++) {
                    if (store.saveSnapshot(context, id, e -> row(id, valueOf(e) + 1)) != null) {
                      saved++;
                    }
                  }
                  return saved;
                }));
      }
      int saved = 0;
      for (Future<Integer> worker : workers) {
        saved += worker.get(120, TimeUnit.SECONDS);
      }
      return saved;
    }
  }
}
