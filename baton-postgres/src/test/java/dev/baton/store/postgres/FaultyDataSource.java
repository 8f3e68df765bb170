package dev.baton.store.postgres;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A data source whose connections fail on demand the way pooled connections do when the database
 * goes away under them: {@link #closeUnderUsers} makes every connection handed out so far behave as
 * one the pool has closed (each call throws the pool's "Connection is closed", which has no SQL
 * state, as HikariCP's does), and {@link #loseCommitAcknowledgements} makes commits succeed and
 * then report the connection's loss, as when the network drops before the server's answer arrives.
 * It hands out a permit of {@link #checkouts} with each connection, so a test can strike while the
 * store is at work rather than at times of its own.
 */
final class FaultyDataSource {
  private final DataSource proxy;
  private final AtomicInteger unacknowledgedCommits = new AtomicInteger();
  private volatile long closedBefore = -1;
  private final AtomicInteger handedOut = new AtomicInteger();
  private final Semaphore checkouts = new Semaphore(0);

  FaultyDataSource(DataSource delegate) {
    this.proxy =
        (DataSource)
            Proxy.newProxyInstance(
                DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class},
                (self, method, args) ->
                    method.getName().equals("getConnection") && args == null
                        ? connection(delegate.getConnection())
                        : call(delegate, method, args));
  }

  /** The data source to give the store. */
  DataSource dataSource() {
    return proxy;
  }

  /** One permit for each connection handed out. */
  Semaphore checkouts() {
    return checkouts;
  }

  /** Every connection handed out so far behaves, from now on, as one the pool has closed. */
  void closeUnderUsers() {
    closedBefore = handedOut.get();
  }

  /** The next {@code times} commits commit, then fail as if the connection had dropped. */
  void loseCommitAcknowledgements(int times) {
    unacknowledgedCommits.set(times);
  }

  private Connection connection(Connection real) {
    long number = handedOut.incrementAndGet();
    checkouts.release();
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (self, method, args) -> {
              if (number <= closedBefore) {
                return switch (method.getName()) {
                  case "isClosed" -> true;
                  case "close" -> call(real, method, args);
                  default -> throw new SQLException("Connection is closed");
                };
              }
              Object result = call(real, method, args);
              if (method.getName().equals("commit")
                  && unacknowledgedCommits.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new SQLException(
                    "An I/O error occurred while sending to the backend.", "08006");
              }
              return result;
            });
  }

  private static @Nullable Object call(Object target, Method method, Object @Nullable [] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
