package dev.baton.core;

import io.opentelemetry.context.Context;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Everything an action run carries with it, passed explicitly from caller to callee the way Go
 * passes {@code ctx}: the registry of the Baton instance it runs in, the auth context a server's
 * context providers produced, a cancellation signal, the tracing parent, and typed attributes that
 * higher layers add (the current agent session, for one).
 *
 * <p>Immutable: every {@code with…} method returns a new context and leaves this one as it was, so
 * a context can be handed to parallel tool calls safely. Baton never stores a context in a thread
 * local.
 */
public final class ActionContext {
  private final Registry registry;
  private final Map<String, Object> auth;
  private final Cancellation cancellation;
  private final Context traceParent;
  private final @Nullable TraceSpan span;
  private final Map<ContextKey<?>, Object> attributes;

  private ActionContext(
      Registry registry,
      Map<String, Object> auth,
      Cancellation cancellation,
      Context traceParent,
      @Nullable TraceSpan span,
      Map<ContextKey<?>, Object> attributes) {
    this.registry = registry;
    this.auth = auth;
    this.cancellation = cancellation;
    this.traceParent = traceParent;
    this.span = span;
    this.attributes = attributes;
  }

  /**
   * A fresh context for a call into the given registry: no auth, a new cancellation signal, and the
   * caller's current OpenTelemetry context as the tracing parent, so Baton's spans nest under the
   * application's own.
   */
  public static ActionContext root(Registry registry) {
    return new ActionContext(
        registry, Map.of(), Cancellation.create(), Context.current(), null, Map.of());
  }

  /** The registry actions are looked up in: the instance's, or a per-call child of it. */
  public Registry registry() {
    return registry;
  }

  /**
   * The auth context: what a server's context providers derived from the request (a user ID, token
   * claims), readable by agents, tools and middleware. Empty in-process unless the caller set it.
   * Immutable.
   */
  public Map<String, Object> auth() {
    return auth;
  }

  public Cancellation cancellation() {
    return cancellation;
  }

  /** The span of the action this context belongs to, or null outside any action. */
  public @Nullable TraceSpan span() {
    return span;
  }

  /** The OpenTelemetry context new spans take as their parent. */
  public Context traceParent() {
    return traceParent;
  }

  /** The value of an attribute, if set. */
  public <T> Optional<T> get(ContextKey<T> key) {
    Object value = attributes.get(key);
    return value == null ? Optional.empty() : Optional.of(key.cast(value));
  }

  public ActionContext withRegistry(Registry registry) {
    return new ActionContext(registry, auth, cancellation, traceParent, span, attributes);
  }

  /** A context with this auth context (copied). */
  public ActionContext withAuth(Map<String, ?> auth) {
    return new ActionContext(
        registry, Map.copyOf(auth), cancellation, traceParent, span, attributes);
  }

  public ActionContext withCancellation(Cancellation cancellation) {
    return new ActionContext(registry, auth, cancellation, traceParent, span, attributes);
  }

  /** A context whose cancellation is a child of this one's, cancellable on its own. */
  public ActionContext withChildCancellation() {
    return withCancellation(cancellation.child());
  }

  /** A context with an attribute set (or replaced). */
  public <T> ActionContext with(ContextKey<T> key, T value) {
    Map<ContextKey<?>, Object> copy = new HashMap<>(attributes);
    copy.put(key, value);
    return new ActionContext(registry, auth, cancellation, traceParent, span, Map.copyOf(copy));
  }

  /** A context without an attribute. */
  public ActionContext without(ContextKey<?> key) {
    if (!attributes.containsKey(key)) {
      return this;
    }
    Map<ContextKey<?>, Object> copy = new HashMap<>(attributes);
    copy.remove(key);
    return new ActionContext(registry, auth, cancellation, traceParent, span, Map.copyOf(copy));
  }

  ActionContext withSpan(TraceSpan span) {
    return new ActionContext(
        registry, auth, cancellation, traceParent.with(span.otelSpan()), span, attributes);
  }
}
