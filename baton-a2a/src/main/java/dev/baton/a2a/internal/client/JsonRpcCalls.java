package dev.baton.a2a.internal.client;

import dev.baton.a2a.A2aAgentOptions;
import dev.baton.a2a.internal.wire.AgentCard;
import dev.baton.a2a.internal.wire.Event;
import dev.baton.a2a.internal.wire.JsonRpcError;
import dev.baton.a2a.internal.wire.JsonRpcRequest;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.agent.AgentHttp;
import dev.baton.internal.core.Lifecycle;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.HttpErrors;
import dev.baton.internal.http.SseReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.UUID;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * The HTTP exchanges of an A2A client: a JSON-RPC 2.0 call is a POST of {@code {"jsonrpc": "2.0",
 * "id", "method", "params"}} answered with its {@code result} or its {@code error}, or, for a
 * streaming method, with SSE whose every event is such an answer; the agent card is a GET. Every
 * request carries the options' headers.
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
  /**
   * Every exchange is a wait, bounded by the whole call's timeout alone: A2A 0.3 sends no
   * keep-alive, a blocking {@code message/send} is silent until its task settles and a
   * resubscription until the task's next event, and the options have no idle timeout to bound the
   * other calls more tightly.
   */
  private static final boolean WAITING = true;

  private final String who;
  private final AgentHttp http;

  JsonRpcCalls(String who, A2aAgentOptions options, Lifecycle lifecycle) {
    this.who = who;
    this.http = new AgentHttp(who, options, options.timeout(), lifecycle);
  }

  /** Reads the agent card with a GET. */
  AgentCard card(ActionContext context, URI url) {
    JsonNode card =
        http.exchange(
            context,
            http.get(context, url).build(),
            WAITING,
            http::json,
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
    HttpRequest request =
        http.post(context, endpoint, envelope(method, params))
            .header("Accept", "application/json")
            .build();
    JsonNode answer = http.exchange(context, request, WAITING, http::json, httpError(method));
    return resultOf(method, answer, resultType);
  }

  /**
   * Calls a JSON-RPC method that answers with a stream of events ({@code tasks/resubscribe}): SSE
   * whose every event is a JSON-RPC response with an {@link Event} as its result. Each event goes
   * to {@code until} until it returns true, which ends the call. The call may stay silent until the
   * whole call's timeout. An agent that answers with one JSON-RPC response rather than a stream (an
   * error, typically) is read as a stream of that one answer.
   *
   * @return whether {@code until} returned true before the stream ended
   * @throws BatonException as {@link #call} does, for the call and for each event
   */
  boolean stream(
      ActionContext context, URI endpoint, String method, Object params, Predicate<Event> until) {
    HttpRequest request =
        http.post(context, endpoint, envelope(method, params))
            .header("Accept", "text/event-stream")
            .build();
    return http.exchange(
        context,
        request,
        WAITING,
        body -> {
          BufferedInputStream answer = new BufferedInputStream(body);
          if (startsWithJson(answer)) {
            return until.test(resultOf(method, http.json(answer), Event.class));
          }
          SseReader events = new SseReader(answer);
          String data;
          while ((data = events.next()) != null) {
            if (until.test(resultOf(method, http.parseJson(data), Event.class))) {
              return true;
            }
          }
          return false;
        },
        httpError(method));
  }

  /** Whether the body starts (after white space) with a JSON object rather than an SSE field. */
  private static boolean startsWithJson(BufferedInputStream body) throws IOException {
    body.mark(Integer.MAX_VALUE);
    int next;
    do {
      next = body.read();
    } while (next != -1 && Character.isWhitespace(next));
    body.reset();
    return next == '{';
  }

  private static JsonRpcRequest envelope(String method, Object params) {
    return JsonRpcRequest.of(
        Json.toTree(UUID.randomUUID().toString()), method, Json.toTree(params));
  }

  /**
   * An HTTP error means the endpoint did not answer in JSON-RPC, whatever its code: a 404 is a
   * wrong URL, not an unknown task, which only -32001 says.
   */
  private HttpCalls.ErrorReader httpError(String method) {
    return (status, headers, body) ->
        new BatonException(
            Status.UNAVAILABLE,
            who + " answered " + method + " with HTTP " + status,
            null,
            true,
            HttpErrors.fromResponse(who, status, headers, body));
  }

  /** The result of a JSON-RPC response, or the error it carries. */
  private <T> T resultOf(String method, JsonNode answer, Class<T> resultType) {
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
