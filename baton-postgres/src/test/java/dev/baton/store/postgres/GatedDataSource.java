package dev.baton.store.postgres;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source whose connections, while it is shut, wait until it opens again: a database that
 * cannot be reached for a while, under the test's control. It counts the callers waiting, so a test
 * knows when a reconnect is stuck at the gate.
 */
final class GatedDataSource implements DataSource {
  private final DataSource delegate;
  private final AtomicInteger waiting = new AtomicInteger();
  private volatile CountDownLatch open = new CountDownLatch(0);

  GatedDataSource(DataSource delegate) {
    this.delegate = delegate;
  }

  /** From now on, connections wait. */
  void shut() {
    open = new CountDownLatch(1);
  }

  /** Lets the waiting callers and later ones through. */
  void open() {
    open.countDown();
  }

  /** How many callers wait at the gate now. */
  int waiting() {
    return waiting.get();
  }

  @Override
  public Connection getConnection() throws SQLException {
    waiting.incrementAndGet();
    try {
      if (!open.await(60, TimeUnit.SECONDS)) {
        throw new SQLException("the test never opened the gate", "08001");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted at the gate", "08001", e);
    } finally {
      waiting.decrementAndGet();
    }
    return delegate.getConnection();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return delegate.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    delegate.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    delegate.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return delegate.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return delegate.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return delegate.unwrap(type);
  }

  @Override
  public boolean isWrapperFor(Class<?> type) throws SQLException {
    return delegate.isWrapperFor(type);
  }
}
