package dev.baton.internal.http;

import java.net.http.HttpRequest;

/**
 * How one deployment of a model API is reached: its address and credentials, apart from the body,
 * which is the same for every deployment of the API. A cloud platform's endpoint and the provider's
 * own differ only here.
 */
@FunctionalInterface
public interface ModelEndpoint {
  /**
   * A request to the endpoint, with its auth headers, for a streamed answer or a whole one. Called
   * once per request a call sends, so that credentials that expire are fetched again.
   */
  HttpRequest.Builder request(boolean streaming);

  /** A POST of {@code json} to the endpoint, accepting SSE when {@code streaming} and JSON else. */
  default HttpRequest post(boolean streaming, byte[] json) {
    return request(streaming)
        .header("Content-Type", "application/json")
        .header("Accept", streaming ? "text/event-stream" : "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(json))
        .build();
  }
}
