package dev.baton.internal.http;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Sends one HTTP request to a provider and reads its answer, honouring the caller's cancellation, a
 * deadline for the whole exchange and an idle timeout between reads of the body.
 *
 * <p>The request goes out with {@link HttpClient#sendAsync}. The exchange is aborted when the
 * context's {@link Cancellation} fires, when {@code timeout} passes before the body has been read
 * to the end, when one read of the body waits longer than {@code idleTimeout} for data, or when the
 * calling thread is interrupted: the pending future is cancelled (which makes the JDK client drop
 * the request) and an open body stream is closed (which unblocks a reader waiting for the next SSE
 * event). The call then fails with the cancellation's reason ({@link Status#CANCELLED} unless the
 * canceller gave another), with {@link Status#DEADLINE_EXCEEDED} for either timeout, or with {@link
 * Status#CANCELLED} for an interrupt (the thread's interrupt flag stays set). The idle timeout
 * counts only time spent waiting inside a read, so neither the wait for the response headers nor
 * the reader's own work between reads (such as passing a chunk on) counts against it; the overall
 * timeout bounds those. A response with a status of 300 or more fails as {@link HttpErrors}
 * describes, or as the caller's {@link ErrorReader} says; a network failure is {@link
 * Status#UNAVAILABLE}. A body cut short by the network still yields every byte that arrived before
 * the cut, and only then the failure, so a reader sees a provider's last chunks and its error event
 * rather than a bare network error.
 *
 * <p>Thread-safe: every call keeps its own state.
 */
public final class HttpCalls {
  private static final int MAX_ERROR_BODY = 64 * 1024;

  private final HttpClient client;
  private final Duration timeout;
  private final Duration idleTimeout;
  private final String provider;

  /**
   * @param timeout how long the whole exchange may take, from sending the request to the end of the
   *     body
   * @param idleTimeout how long one read of the response body may wait for data
   * @param provider how messages name the other side, such as {@code "Gemini API"}
   */
  public HttpCalls(HttpClient client, Duration timeout, Duration idleTimeout, String provider) {
    this.client = client;
    this.timeout = timeout;
    this.idleTimeout = idleTimeout;
    this.provider = provider;
  }

  /** Reads a successful response body; the body is closed afterwards. */
  @FunctionalInterface
  public interface BodyReader<T> {
    T read(InputStream body) throws IOException;
  }

  /** Turns an answer with a status of 300 or more into the error it stands for. */
  @FunctionalInterface
  public interface ErrorReader {
    BatonException read(int httpStatus, HttpHeaders headers, byte[] body);
  }

  /**
   * Sends the request and returns what {@code reader} makes of the successful response body; an
   * answer of 300 or more fails as {@link HttpErrors#fromResponse} says.
   */
  public <T> T exchange(ActionContext context, HttpRequest request, BodyReader<T> reader) {
    return exchange(
        context,
        request,
        reader,
        (status, headers, body) -> HttpErrors.fromResponse(provider, status, headers, body));
  }

  /**
   * Sends the request and returns what {@code reader} makes of the successful response body; an
   * answer of 300 or more fails with what {@code errors} makes of it (its body is read up to 64
   * KiB).
   */
  public <T> T exchange(
      ActionContext context, HttpRequest request, BodyReader<T> reader, ErrorReader errors) {
    Cancellation cancellation = context.cancellation();
    cancellation.throwIfCancelled();
    Exchange exchange = new Exchange();
    CompletableFuture<Void> deadline =
        timer(
            timeout,
            () ->
                exchange.abort(
                    new BatonException(
                        Status.DEADLINE_EXCEEDED,
                        provider + " did not finish answering within " + timeout)));
    try (Cancellation.Registration registration =
        cancellation.onCancel(() -> exchange.abort(reasonOf(cancellation)))) {
      HttpResponse<InputStream> response =
          exchange.await(client.sendAsync(request, info -> new LosslessBodyStream()));
      try (InputStream body = exchange.opened(new IdleGuard(response.body(), exchange))) {
        if (response.statusCode() >= 300) {
          throw errors.read(
              response.statusCode(), response.headers(), body.readNBytes(MAX_ERROR_BODY));
        }
        T result = reader.read(body);
        // An abort that closed the body can look like a clean end of stream to the reader.
        exchange.throwIfAborted();
        return result;
      }
    } catch (IOException e) {
      throw exchange.failure(e);
    } catch (RuntimeException e) {
      // A reader fed a stream cut short by an abort may fail on the truncated data; report why.
      throw exchange.abortedOr(e);
    } finally {
      // Completing the deadline also cancels its timer.
      deadline.complete(null);
    }
  }

  /**
   * Parses JSON that a successful response carried: the whole body, or the data of one SSE event.
   * Text that is not JSON (a proxy's HTML page, an event cut short) fails with {@link
   * Status#UNAVAILABLE}, naming the provider, with the start of the text in a non-public cause (see
   * {@link HttpErrors#notJson}): the server answered 200 without what the API promises, which is a
   * fault of the service rather than of the request, and a retry may well succeed.
   */
  public JsonNode parseJson(String text) {
    try {
      JsonNode json = Json.parse(text);
      if (!json.isMissingNode()) {
        return json;
      }
    } catch (BatonException notJson) {
      throw HttpErrors.notJson(provider, text, notJson);
    }
    throw HttpErrors.notJson(provider, text, null);
  }

  /** A future that runs {@code onExpiry} once {@code delay} passes unless completed before. */
  @SuppressWarnings("FutureReturnValueIgnored") // the timer itself is returned and watched
  private static CompletableFuture<Void> timer(Duration delay, Runnable onExpiry) {
    CompletableFuture<Void> timer = new CompletableFuture<>();
    timer
        .orTimeout(delay.toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete(
            (ignored, error) -> {
              if (error != null) {
                onExpiry.run();
              }
            });
    return timer;
  }

  private static BatonException reasonOf(Cancellation cancellation) {
    BatonException reason = cancellation.reason();
    return reason != null
        ? reason
        : new BatonException(Status.CANCELLED, "the operation was cancelled");
  }

  /** The state of one exchange that an abort from another thread must see. */
  private final class Exchange {
    private @Nullable BatonException aborted;
    private @Nullable CompletableFuture<?> pending;
    private @Nullable InputStream body;

    void abort(BatonException reason) {
      CompletableFuture<?> future;
      InputStream stream;
      synchronized (this) {
        if (aborted != null) {
          return;
        }
        aborted = reason;
        future = pending;
        stream = body;
      }
      if (future != null) {
        future.cancel(true);
      }
      closeQuietly(stream);
    }

    HttpResponse<InputStream> await(CompletableFuture<HttpResponse<InputStream>> future)
        throws IOException {
      boolean abortedAlready;
      synchronized (this) {
        pending = future;
        abortedAlready = aborted != null;
      }
      if (abortedAlready) {
        future.cancel(true);
      }
      try {
        return future.get();
      } catch (CancellationException e) {
        throw failure(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failure(e);
      } catch (ExecutionException e) {
        Throwable cause = Objects.requireNonNullElse(e.getCause(), e);
        if (cause instanceof IOException io) {
          throw io;
        }
        throw failure(cause);
      }
    }

    InputStream opened(InputStream stream) {
      boolean abortedAlready;
      synchronized (this) {
        body = stream;
        abortedAlready = aborted != null;
      }
      if (abortedAlready) {
        closeQuietly(stream);
      }
      return stream;
    }

    synchronized RuntimeException abortedOr(RuntimeException error) {
      return aborted != null ? aborted : error;
    }

    synchronized void throwIfAborted() {
      if (aborted != null) {
        throw aborted;
      }
    }

    /**
     * The abort reason when the exchange was aborted, else the failure as a network error. An
     * interrupted thread aborts the exchange first: the JDK client reports an interrupted read as a
     * plain {@link IOException}, and the caller asked to stop rather than lost the network.
     */
    BatonException failure(Throwable error) {
      if (Thread.currentThread().isInterrupted()) {
        abort(
            new BatonException(
                Status.CANCELLED,
                "the call to " + provider + " was interrupted",
                null,
                true,
                error));
      }
      synchronized (this) {
        if (aborted != null) {
          return aborted;
        }
      }
      if (error instanceof BatonException batonException) {
        return batonException;
      }
      String detail =
          error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
      // Not public: a network error names hosts and addresses of the server's own network.
      return new BatonException(
          Status.UNAVAILABLE, "could not reach " + provider + ": " + detail, null, false, error);
    }
  }

  /** The response body, aborting the exchange when one read waits too long for data. */
  private final class IdleGuard extends FilterInputStream {
    private final Exchange exchange;

    IdleGuard(InputStream body, Exchange exchange) {
      super(body);
      this.exchange = exchange;
    }

    @Override
    public int read() throws IOException {
      CompletableFuture<Void> idle = idleTimer();
      try {
        return super.read();
      } finally {
        idle.complete(null);
      }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      CompletableFuture<Void> idle = idleTimer();
      try {
        return super.read(buffer, offset, length);
      } finally {
        idle.complete(null);
      }
    }

    private CompletableFuture<Void> idleTimer() {
      return timer(
          idleTimeout,
          () ->
              exchange.abort(
                  new BatonException(
                      Status.DEADLINE_EXCEEDED,
                      provider + " sent nothing for " + idleTimeout + " mid-answer")));
    }
  }

  private static void closeQuietly(@Nullable InputStream stream) {
    if (stream == null) {
      return;
    }
    try {
      stream.close();
    } catch (IOException ignored) {
      // Closing only serves to unblock a reader; a failure to close changes nothing.
    }
  }
}
