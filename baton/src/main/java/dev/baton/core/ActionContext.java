package dev.baton.core;

import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.Tracing;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Everything an action run carries with it, passed explicitly from caller to callee the way Go
 * passes {@code ctx}: the registry of the Baton instance it runs in, the auth context a server's
 * context providers produced, a cancellation signal, and typed attributes that higher layers add
 * (the current agent session, for one). The tracing parent rides along too, so Baton's spans nest
 * under the caller's.
 *
 * <p>Get one from {@code baton.context()}, or from the action, tool or agent turn you are in.
 * Immutable: every {@code with…} method returns a new context and leaves this one as it was, so a
 * context can be handed to parallel tool calls safely. Baton never stores a context in a thread
 * local.
 */
public final class ActionContext {
  /**
   * The auth-context key that binds a call to a principal: a non-empty string (a user or service
   * ID) that a server's context provider puts under this key. A server-managed agent's sessions
   * then belong to the principal that started them: every read, wait, abort or turn on another
   * principal's session or snapshot answers as for an unknown ID ({@code NOT_FOUND}, or a fresh
   * session for a session ID), so IDs leak nothing. Calls without a principal see only sessions
   * started without one, and may not name IDs of the form {@code p<32 hex digits>~...}, which
   * stores use for principals' sessions ({@code INVALID_ARGUMENT}).
   *
   * <p>A principal must be well-formed UTF-16 (no lone surrogate): a server-managed agent fails a
   * call whose principal is not with {@code INTERNAL}, since two such principals could otherwise
   * share sessions.
   */
  public static final String PRINCIPAL = "principal";

  private final Registry registry;
  private final Map<String, Object> auth;
  private final Cancellation cancellation;
  private final @Nullable Attribute attributes;

  /**
   * The attributes, newest first: deriving a context adds one node instead of copying a map, and a
   * context rarely carries more than a handful. A null value hides the key (see {@link #without}).
   */
  private record Attribute(ContextKey<?> key, @Nullable Object value, @Nullable Attribute next) {}

  private ActionContext(
      Registry registry,
      Map<String, Object> auth,
      Cancellation cancellation,
      @Nullable Attribute attributes) {
    this.registry = registry;
    this.auth = auth;
    this.cancellation = cancellation;
    this.attributes = attributes;
  }

  /**
   * A fresh context for a call into the given registry: no auth, a new cancellation signal, and,
   * when the registry's instance traces, the caller's current OpenTelemetry context as the tracing
   * parent, so Baton's spans nest under the application's own. {@code baton.context()} is the usual
   * way to get one.
   */
  public static ActionContext root(Registry registry) {
    // With tracing off no span is opened, so no parent is needed; reading the current context
    // would start OpenTelemetry's context storage, and java.util.logging with it, for nothing.
    Attribute parent =
        DefaultRegistry.tracing(registry).isEnabled()
            ? new Attribute(Tracing.PARENT, Context.current(), null)
            : null;
    return new ActionContext(registry, Map.of(), Cancellation.create(), parent);
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

  /**
   * The principal the auth context binds the call to (its {@value #PRINCIPAL} entry, when that is a
   * non-empty string), or empty.
   */
  public Optional<String> principal() {
    return auth.get(PRINCIPAL) instanceof String principal && !principal.isEmpty()
        ? Optional.of(principal)
        : Optional.empty();
  }

  /** The value of an attribute, if set. */
  public <T> Optional<T> get(ContextKey<T> key) {
    for (Attribute a = attributes; a != null; a = a.next) {
      if (a.key == key) {
        return a.value == null ? Optional.empty() : Optional.of(key.cast(a.value));
      }
    }
    return Optional.empty();
  }

  /** A context for calls into another registry. */
  public ActionContext withRegistry(Registry registry) {
    return new ActionContext(registry, auth, cancellation, attributes);
  }

  /** A context with this auth context (copied). */
  public ActionContext withAuth(Map<String, ?> auth) {
    return new ActionContext(registry, Map.copyOf(auth), cancellation, attributes);
  }

  public ActionContext withCancellation(Cancellation cancellation) {
    return new ActionContext(registry, auth, cancellation, attributes);
  }

  /** A context whose cancellation is a child of this one's, cancellable on its own. */
  public ActionContext withChildCancellation() {
    return withCancellation(cancellation.child());
  }

  /** A context with an attribute set (or replaced). */
  public <T> ActionContext with(ContextKey<T> key, T value) {
    return new ActionContext(registry, auth, cancellation, push(key, key.cast(value)));
  }

  /** A context without an attribute. */
  public ActionContext without(ContextKey<?> key) {
    return get(key).isEmpty()
        ? this
        : new ActionContext(registry, auth, cancellation, push(key, null));
  }

  private Attribute push(ContextKey<?> key, @Nullable Object value) {
    Attribute head = attributes;
    // Setting the newest key again replaces it, so a loop that re-derives does not grow the chain.
    if (head != null && head.key == key) {
      return new Attribute(key, value, head.next);
    }
    return new Attribute(key, value, head);
  }
}
