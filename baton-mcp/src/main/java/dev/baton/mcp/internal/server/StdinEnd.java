package dev.baton.mcp.internal.server;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/**
 * A stdio server's input, which tells when it has ended (end of stream, or a read that failed) so
 * that the thread serving it can return; {@link #end} ends the wait early, when the server closes.
 */
public final class StdinEnd extends FilterInputStream {
  private final CountDownLatch ended = new CountDownLatch(1);

  public StdinEnd(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    return observe(() -> super.read());
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    return observe(() -> super.read(buffer, offset, length));
  }

  private interface Read {
    int read() throws IOException;
  }

  private int observe(Read read) throws IOException {
    try {
      int result = read.read();
      if (result < 0) {
        ended.countDown();
      }
      return result;
    } catch (IOException | RuntimeException e) {
      ended.countDown();
      throw e;
    }
  }

  /** Blocks until the input ends or {@link #end} is called. */
  public void await() throws InterruptedException {
    ended.await();
  }

  public void end() {
    ended.countDown();
  }
}
