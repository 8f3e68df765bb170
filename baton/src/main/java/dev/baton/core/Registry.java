package dev.baton.core;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * Where a Baton instance keeps its actions and values, keyed {@code /<type>/<name>}: what a {@link
 * Plugin} registers into, and what a server or the reflection API lists.
 *
 * <p>Lookups that miss ask the registered resolvers, which lets a plugin serve any model name under
 * its namespace ({@code googleai/<anything>}) without listing them up front; a resolved action is
 * registered, so it is resolved once. One registry never accepts the same key twice.
 *
 * <p>Baton creates registries (one per instance, {@code Baton.registry()}); this interface is not
 * meant to be implemented outside Baton. Thread-safe.
 */
public interface Registry {

  /** Whether the instance enabled experimental features (agents and their middleware). */
  boolean isExperimental();

  /**
   * Registers an action under its descriptor's key.
   *
   * @return the action, for chaining
   * @throws BatonException {@link Status#ALREADY_EXISTS} when this registry already has the key
   */
  <A extends Action<?, ?, ?>> A register(A action);

  /**
   * Registers a value (a middleware descriptor, say) under {@code /<type>/<name>}.
   *
   * @throws BatonException {@link Status#ALREADY_EXISTS} when this registry already has the key
   */
  void registerValue(String type, String name, Object value);

  /**
   * Adds a resolver consulted when a lookup misses: given a type and a name, it returns the action
   * to register under them, or null when it does not serve that name.
   */
  void addResolver(BiFunction<ActionType, String, @Nullable Action<?, ?, ?>> resolver);

  /** The action with this key ({@code /model/echo}), registered or from a resolver. */
  Optional<Action<?, ?, ?>> lookup(String key);

  /** The action of this type and name. */
  default Optional<Action<?, ?, ?>> lookup(ActionType type, String name) {
    return lookup(type.key(name));
  }

  /** The value registered under {@code /<type>/<name>}. */
  Optional<Object> lookupValue(String type, String name);

  /** Every registered action, sorted by key. */
  List<Action<?, ?, ?>> actions();

  /** Every value of a type, by name. */
  Map<String, Object> values(String type);
}
