package dev.baton.plugins.vertexai;

import com.google.auth.RequestMetadataCallback;
import com.google.auth.Retryable;
import com.google.auth.oauth2.GoogleCredentials;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A plugin's Google Cloud credentials: loaded once (Application Default Credentials unless the
 * builder gave some), scoped for Vertex AI, and turned into each request's auth headers.
 *
 * <p>Loading credentials and fetching a token block on files, the metadata server or the token
 * endpoint, so both run on a virtual thread and the calling thread only waits for them: a cancelled
 * call stops waiting at once, a call whose timeout passes fails with {@code DEADLINE_EXCEEDED}, and
 * no lock of this class is held meanwhile. Tokens are the auth library's to cache and refresh: it
 * hands out the cached token while it is fresh, refreshes it before it expires, and shares one
 * refresh among the calls that need it. A failed load is not kept, so the next call tries again
 * (after {@code gcloud auth application-default login}, say).
 *
 * <p>Thread-safe.
 */
final class GoogleAuth {
  /** The scope Vertex AI's methods accept. */
  static final String CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";

  private static final Executor BLOCKING =
      task -> Thread.ofVirtual().name("baton-vertexai-auth").start(task);

  private final Callable<GoogleCredentials> loader;
  private final Duration timeout;
  private final AtomicReference<@Nullable CompletableFuture<GoogleCredentials>> credentials =
      new AtomicReference<>();

  /**
   * @param loader where the credentials come from; called again only after a failure
   * @param timeout how long a call may wait for credentials and for a token
   */
  GoogleAuth(Callable<GoogleCredentials> loader, Duration timeout) {
    this.loader = loader;
    this.timeout = timeout;
  }

  /** The credentials, loaded on first use and scoped for Vertex AI when they need scopes. */
  GoogleCredentials credentials(ActionContext context) {
    CompletableFuture<GoogleCredentials> loading = credentials.get();
    if (loading == null) {
      CompletableFuture<GoogleCredentials> mine = new CompletableFuture<>();
      if (credentials.compareAndSet(null, mine)) {
        BLOCKING.execute(() -> load(mine));
        loading = mine;
      } else {
        loading = credentials.get();
      }
    }
    return await(context, Objects.requireNonNull(loading), "loading credentials");
  }

  /** The headers that authorize a request to {@code uri}: {@code Authorization: Bearer ...}. */
  Map<String, List<String>> headers(ActionContext context, GoogleCredentials credentials, URI uri) {
    CompletableFuture<Map<String, List<String>>> metadata = new CompletableFuture<>();
    credentials.getRequestMetadata(
        uri,
        BLOCKING,
        new RequestMetadataCallback() {
          @Override
          public void onSuccess(Map<String, List<String>> headers) {
            metadata.complete(headers);
          }

          @Override
          public void onFailure(Throwable failure) {
            metadata.completeExceptionally(failure);
          }
        });
    return await(context, metadata, "fetching an access token");
  }

  private void load(CompletableFuture<GoogleCredentials> result) {
    try {
      GoogleCredentials loaded = loader.call();
      result.complete(
          loaded.createScopedRequired() ? loaded.createScoped(List.of(CLOUD_PLATFORM)) : loaded);
    } catch (Exception e) {
      credentials.compareAndSet(result, null);
      // How this process is set up is none of a remote caller's business.
      result.completeExceptionally(
          new BatonException(
              Status.FAILED_PRECONDITION,
              "no Google Cloud credentials: set GOOGLE_APPLICATION_CREDENTIALS to a key file, run"
                  + " \"gcloud auth application-default login\", run on Google Cloud, or pass"
                  + " VertexAI.builder().credentials(...)",
              null,
              false,
              e));
    }
  }

  private <T> T await(ActionContext context, CompletableFuture<T> work, String what) {
    Cancellation cancellation = context.cancellation();
    cancellation.throwIfCancelled();
    // Waits on a copy, so that a cancelled call leaves the shared work to the other calls.
    CompletableFuture<T> wait = work.copy();
    try (Cancellation.Registration registration = cancellation.onCancel(() -> wait.cancel(false))) {
      return wait.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (CancellationException e) {
      BatonException reason = cancellation.reason();
      throw reason != null
          ? reason
          : new BatonException(Status.CANCELLED, "the call was cancelled");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BatonException(Status.CANCELLED, "interrupted while " + what);
    } catch (TimeoutException e) {
      throw new BatonException(
          Status.DEADLINE_EXCEEDED,
          VertexAI.PROVIDER + ": " + what + " took longer than " + timeout);
    } catch (ExecutionException e) {
      throw failure(e.getCause(), what);
    }
  }

  /**
   * A refused credential concerns this process's account, not the caller's request, so its message
   * stays out of what a remote caller sees; a token endpoint that could not be reached, or that
   * failed in a way worth retrying, is {@code UNAVAILABLE}.
   */
  private static BatonException failure(@Nullable Throwable cause, String what) {
    if (cause instanceof BatonException e) {
      return e;
    }
    boolean retryable =
        cause instanceof Retryable r ? r.isRetryable() : cause instanceof IOException;
    Status status = retryable ? Status.UNAVAILABLE : Status.UNAUTHENTICATED;
    return new BatonException(
        status,
        "Google Cloud credentials failed while "
            + what
            + ": "
            + (cause == null ? "" : cause.getMessage()),
        null,
        false,
        cause);
  }
}
