package dev.baton.store.postgres;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * A data source whose next query, once {@link #holdNextQuery armed}, runs and then keeps its caller
 * waiting with the result until the test {@link #release releases} it: a reader stopped right after
 * its read, under the test's control. Only prepared statements' queries are held.
 */
final class HeldQueries {
  private final DataSource dataSource;
  private final AtomicBoolean armed = new AtomicBoolean();
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);

  HeldQueries(DataSource delegate) {
    this.dataSource =
        proxy(
            DataSource.class,
            delegate,
            (result, method) ->
                result instanceof Connection connection
                    ? proxy(Connection.class, connection, this::statement)
                    : result);
  }

  /** The data source to give the code under test. */
  DataSource dataSource() {
    return dataSource;
  }

  /** The next query run through {@link #dataSource} will be held; only one ever is. */
  void holdNextQuery() {
    armed.set(true);
  }

  /** Waits until the held query has run and its caller waits. */
  void awaitHeld() throws InterruptedException {
    if (!held.await(60, TimeUnit.SECONDS)) {
      throw new AssertionError("no query was held");
    }
  }

  /** Lets the held caller go on with its result. */
  void release() {
    released.countDown();
  }

  private Object statement(Object result, Method method) throws SQLException {
    return result instanceof PreparedStatement statement
        ? proxy(PreparedStatement.class, statement, this::query)
        : result;
  }

  private Object query(Object result, Method method) throws SQLException {
    if (method.getName().equals("executeQuery") && armed.compareAndSet(true, false)) {
      held.countDown();
      try {
        if (!released.await(60, TimeUnit.SECONDS)) {
          throw new SQLException("the test never released the query", "08001");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while held", "08001", e);
      }
    }
    return result;
  }

  /** What a proxy does with the result of a call it passed on. */
  @FunctionalInterface
  private interface After {
    Object apply(Object result, Method method) throws SQLException;
  }

  private static <T> T proxy(Class<T> type, T delegate, After after) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(delegate, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          return after.apply(result, method);
        };
    return type.cast(
        Proxy.newProxyInstance(HeldQueries.class.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
