package dev.baton.server.internal.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP request and its answer as a server binding hands them to the protocol: what the {@link
 * Exchange} reads of the request, how it writes the answer, and how it learns that the client went
 * away. A binding implements it over its server's own types (Jetty's core request, a servlet
 * request in async mode), so that the protocol is written once.
 *
 * <p>The exchange calls it from the request's virtual thread, except {@link #write} of keep-alive
 * comments, which a timer's virtual thread calls while the request's thread may be writing a frame
 * (the {@link SseStream} orders those writes). The exchange ends every request with exactly one
 * {@link #finish} or {@link #complete}.
 */
public interface Transport {
  /** The request's method, upper case. */
  String method();

  /**
   * The client's IP address as the connection reports it (a proxy's, behind one), or null when the
   * server cannot tell.
   */
  @Nullable String remoteAddress();

  /** The request's raw query string, or null for none. */
  @Nullable String query();

  /** A request header's value by its name in any case, or null when the request has none. */
  @Nullable String requestHeader(String name);

  /**
   * Calls {@code action} with each request header's name and value, a repeated one once a value.
   */
  void forEachRequestHeader(BiConsumer<String, String> action);

  /** The body's length as the request declares it, or -1 when it declares none. */
  long declaredLength();

  /** The request body, read once. */
  InputStream body() throws IOException;

  /**
   * Starts watching the client, once the body has been read: {@code onGone} runs (at most once, on
   * a thread other than the request's) when the binding notices that the client went away.
   */
  void watchClient(Runnable onGone);

  /**
   * Stops watching the client, before the answer ends.
   *
   * @return whether the connection must be closed after the answer
   */
  boolean stopWatching();

  /** Whether the answer's status and headers have been sent. */
  boolean isCommitted();

  /** Sets the answer's status, before it is committed. */
  void setStatus(int status);

  /** Sets an answer header, before it is committed. */
  void setHeader(String name, String value);

  /**
   * Writes bytes of the answer and blocks until the connection has taken them (flushed, so a
   * stream's frame reaches the client at once); an empty write commits the status and headers.
   *
   * @param last whether these are the answer's last bytes
   * @throws IOException when the client is gone
   */
  void write(byte[] bytes, boolean last) throws IOException;

  /**
   * Writes the whole answer body as its last bytes and ends the request, without waiting for the
   * client to read them where the server allows that. Failures are the binding's to log.
   */
  void finish(byte[] bytes);

  /**
   * Ends the request after its last bytes were written (or could not be).
   *
   * @param failure why the answer could not be finished, or null
   * @param closeConnection whether the connection must not carry another request
   */
  void complete(@Nullable Throwable failure, boolean closeConnection);
}
