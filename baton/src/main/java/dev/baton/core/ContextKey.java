package dev.baton.core;

/**
 * A typed key for a value carried on an {@link ActionContext}, such as the current agent session.
 * Keys compare by identity: create one per concept, as a constant. Immutable and thread-safe.
 *
 * @param <T> the type of the value
 */
public final class ContextKey<T> {
  private final String name;
  private final Class<T> type;

  private ContextKey(String name, Class<T> type) {
    this.name = name;
    this.type = type;
  }

  public static <T> ContextKey<T> of(String name, Class<T> type) {
    return new ContextKey<>(name, type);
  }

  public String name() {
    return name;
  }

  T cast(Object value) {
    return type.cast(value);
  }

  @Override
  public String toString() {
    return "ContextKey[" + name + "]";
  }
}
