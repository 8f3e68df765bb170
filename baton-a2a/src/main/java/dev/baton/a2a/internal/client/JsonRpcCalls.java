package dev.baton.a2a.internal.client;

import dev.baton.a2a.A2aAgentOptions;
import dev.baton.a2a.internal.wire.AgentCard;
import dev.baton.a2a.internal.wire.JsonRpcError;
import dev.baton.a2a.internal.wire.JsonRpcRequest;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.core.Lifecycle;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.HttpErrors;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * The HTTP exchanges of an A2A client: a JSON-RPC 2.0 call is a POST of {@code {"jsonrpc": "2.0",
 * "id", "method", "params"}} answered with its {@code result} or its {@code error}; the agent card
 * is a GET. Every request carries the options' headers.
 *
 * <p>Errors keep their meaning: a network failure and an answer that is not JSON-RPC are {@code
 * UNAVAILABLE} (the agent is unreachable or broken, and a retry may succeed), and so is an HTTP
 * error of a JSON-RPC call, whatever its code; the card's HTTP error takes the status of its code
 * ({@link HttpErrors#fromResponse}); a JSON-RPC error takes the status its code stands for ({@link
 * #statusOf}), with the agent's message, which it sent to a client and which may therefore reach
 * Baton's own.
 *
 * <p>Thread-safe.
 */
final class JsonRpcCalls {
  private final String who;
  private final A2aAgentOptions options;
  private final HttpCalls calls;

  JsonRpcCalls(String who, A2aAgentOptions options, Lifecycle lifecycle) {
    this.who = who;
    this.options = options;
    HttpClient given = options.httpClient();
    HttpClient client = given != null ? given : ownClient(lifecycle);
    this.calls = new HttpCalls(client, options.timeout(), options.timeout(), who);
  }

  /**
   * A client of Baton's own, whose selector thread stops when the instance closes; the
   * application's client is the application's to close.
   */
  private static HttpClient ownClient(Lifecycle lifecycle) {
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    lifecycle.onClose(client::shutdownNow);
    return client;
  }

  /** Reads the agent card with a GET. */
  AgentCard card(ActionContext context, URI url) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url).GET().header("Accept", "application/json");
    options.headers(context).forEach(request::header);
    JsonNode card =
        calls.exchange(
            context,
            request.build(),
            body -> calls.parseJson(new String(body.readAllBytes(), StandardCharsets.UTF_8)),
            (status, headers, body) -> HttpErrors.fromResponse(who, status, headers, body));
    return read("the card request", card, AgentCard.class);
  }

  /**
   * Calls a JSON-RPC method and returns its result.
   *
   * @throws BatonException the JSON-RPC error's status ({@link #statusOf}), {@code UNAVAILABLE}
   *     when the agent cannot be reached or does not answer in JSON-RPC
   */
  <T> T call(
      ActionContext context, URI endpoint, String method, Object params, Class<T> resultType) {
    JsonRpcRequest envelope =
        JsonRpcRequest.of(Json.toTree(UUID.randomUUID().toString()), method, Json.toTree(params));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint)
            .POST(HttpRequest.BodyPublishers.ofByteArray(Json.writeBytes(envelope)))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json");
    options.headers(context).forEach(request::header);
    JsonNode answer =
        calls.exchange(
            context,
            request.build(),
            body -> calls.parseJson(new String(body.readAllBytes(), StandardCharsets.UTF_8)),
            // An HTTP error means the endpoint did not answer in JSON-RPC, whatever its code: a
            // 404 is a wrong URL, not an unknown task, which only -32001 says.
            (status, headers, body) ->
                new BatonException(
                    Status.UNAVAILABLE,
                    who + " answered " + method + " with HTTP " + status,
                    null,
                    true,
                    HttpErrors.fromResponse(who, status, headers, body)));
    JsonNode error = answer.get("error");
    if (error != null && error.isObject()) {
      throw errorOf(method, read(method, error, JsonRpcError.class));
    }
    JsonNode result = answer.get("result");
    if (result == null || !result.isObject()) {
      throw new BatonException(
          Status.UNAVAILABLE, who + " answered " + method + " without a result", null, true, null);
    }
    return read(method, result, resultType);
  }

  /**
   * The agent's answer as a wire record; an answer that does not read as one is the agent's fault:
   * {@code UNAVAILABLE}, with what went wrong in a non-public cause.
   */
  private <T> T read(String method, JsonNode json, Class<T> type) {
    try {
      return Json.convert(json, type);
    } catch (BatonException unreadable) {
      throw new BatonException(
          Status.UNAVAILABLE,
          who + " answered " + method + " with a " + type.getSimpleName() + " Baton cannot read",
          null,
          true,
          new BatonException(
              Status.INTERNAL, String.valueOf(unreadable.getMessage()), null, false, unreadable));
    }
  }

  /** The agent's JSON-RPC error, with its message: the agent sent it to a client. */
  private BatonException errorOf(String method, JsonRpcError error) {
    String message = error.message() == null ? "" : error.message();
    return new BatonException(
        statusOf(error.code()),
        who
            + " answered "
            + method
            + " with error "
            + error.code()
            + (message.isEmpty() ? "" : ": " + message),
        null,
        true,
        null);
  }

  /**
   * The status of an A2A 0.3 JSON-RPC error code: task not found {@code NOT_FOUND}, task not
   * cancelable {@code FAILED_PRECONDITION}, unsupported operations and methods {@code
   * UNIMPLEMENTED}, invalid parameters and unsupported content types {@code INVALID_ARGUMENT}; an
   * error in the agent or a request it could not read (Baton's mistake or the agent's) {@code
   * INTERNAL}.
   */
  static Status statusOf(int code) {
    return switch (code) {
      case JsonRpcError.TASK_NOT_FOUND -> Status.NOT_FOUND;
      case JsonRpcError.TASK_NOT_CANCELABLE -> Status.FAILED_PRECONDITION;
      case JsonRpcError.METHOD_NOT_FOUND,
          JsonRpcError.PUSH_NOTIFICATION_NOT_SUPPORTED,
          JsonRpcError.UNSUPPORTED_OPERATION ->
          Status.UNIMPLEMENTED;
      case JsonRpcError.INVALID_PARAMS, JsonRpcError.CONTENT_TYPE_NOT_SUPPORTED ->
          Status.INVALID_ARGUMENT;
      default -> Status.INTERNAL;
    };
  }
}
