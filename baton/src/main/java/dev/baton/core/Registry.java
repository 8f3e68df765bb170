package dev.baton.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * Where a Baton instance keeps its actions and values, keyed {@code /<type>/<name>}.
 *
 * <p>A {@linkplain #child() child registry} sees everything its parent holds and adds its own
 * entries, invisible to the parent and to siblings; a generate call puts the tools its middleware
 * contributes there. A child's entry may shadow the parent's, but one registry never accepts the
 * same key twice.
 *
 * <p>Lookups that miss ask the registered {@link ActionResolver}s, which lets a plugin serve any
 * model name under its namespace ({@code googleai/<anything>}) without listing them up front; a
 * resolved action is registered, so it is resolved once.
 *
 * <p>Thread-safe.
 */
public final class Registry {
  private final @Nullable Registry parent;
  private final Tracing tracing;
  private final boolean experimental;
  private final ConcurrentMap<String, Action<?, ?, ?>> actions = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Object> values = new ConcurrentHashMap<>();
  private final List<ActionResolver> resolvers = new CopyOnWriteArrayList<>();

  private Registry(@Nullable Registry parent, Tracing tracing, boolean experimental) {
    this.parent = parent;
    this.tracing = tracing;
    this.experimental = experimental;
  }

  /** A new root registry. */
  public static Registry create(Tracing tracing, boolean experimental) {
    return new Registry(null, tracing, experimental);
  }

  /** The root of this registry's family: the instance's own registry. */
  public Registry root() {
    Registry r = this;
    while (r.parent != null) {
      r = r.parent;
    }
    return r;
  }

  /** A new registry that sees this one's entries and keeps its own apart. */
  public Registry child() {
    return new Registry(this, tracing, experimental);
  }

  public Tracing tracing() {
    return tracing;
  }

  /** Whether the instance enabled experimental features (agents and their middleware). */
  public boolean isExperimental() {
    return experimental;
  }

  /**
   * Registers an action under its descriptor's key.
   *
   * @throws BatonException {@link Status#ALREADY_EXISTS} when this registry already has the key
   */
  public <A extends Action<?, ?, ?>> A register(A action) {
    String key = action.descriptor().key();
    if (actions.putIfAbsent(key, action) != null) {
      throw BatonException.of(Status.ALREADY_EXISTS, "action %s is already registered", key);
    }
    return action;
  }

  /**
   * Registers a value (a middleware descriptor, a default model name) under {@code /<type>/<name>}.
   *
   * @throws BatonException {@link Status#ALREADY_EXISTS} when this registry already has the key
   */
  public void registerValue(String type, String name, Object value) {
    String key = "/" + type + "/" + name;
    if (values.putIfAbsent(key, value) != null) {
      throw BatonException.of(Status.ALREADY_EXISTS, "value %s is already registered", key);
    }
  }

  /** Adds a resolver consulted when a lookup misses. */
  public void addResolver(ActionResolver resolver) {
    resolvers.add(resolver);
  }

  /** The action with this key ({@code /model/echo}), here, in a parent, or from a resolver. */
  public Optional<Action<?, ?, ?>> lookup(String key) {
    for (Registry r = this; r != null; r = r.parent) {
      Action<?, ?, ?> found = r.actions.get(key);
      if (found != null) {
        return Optional.of(found);
      }
    }
    return resolve(key);
  }

  /** The action of this type and name. */
  public Optional<Action<?, ?, ?>> lookup(ActionType type, String name) {
    return lookup(type.key(name));
  }

  /** The value registered under {@code /<type>/<name>}, here or in a parent. */
  public Optional<Object> lookupValue(String type, String name) {
    String key = "/" + type + "/" + name;
    for (Registry r = this; r != null; r = r.parent) {
      Object found = r.values.get(key);
      if (found != null) {
        return Optional.of(found);
      }
    }
    return Optional.empty();
  }

  /** Every action visible here, a child's entries shadowing its parent's, sorted by key. */
  public List<Action<?, ?, ?>> actions() {
    Map<String, Action<?, ?, ?>> all = new LinkedHashMap<>();
    collect(all);
    List<Action<?, ?, ?>> sorted = new ArrayList<>(all.values());
    sorted.sort(Comparator.comparing(a -> a.descriptor().key()));
    return List.copyOf(sorted);
  }

  /** Every value of a type visible here, by name. */
  public Map<String, Object> values(String type) {
    String prefix = "/" + type + "/";
    Map<String, Object> found = new LinkedHashMap<>();
    for (Registry r = this; r != null; r = r.parent) {
      r.values.forEach(
          (key, value) -> {
            if (key.startsWith(prefix)) {
              found.putIfAbsent(key.substring(prefix.length()), value);
            }
          });
    }
    return Map.copyOf(found);
  }

  private void collect(Map<String, Action<?, ?, ?>> into) {
    actions.forEach(into::putIfAbsent);
    if (parent != null) {
      parent.collect(into);
    }
  }

  private Optional<Action<?, ?, ?>> resolve(String key) {
    int slash = key.indexOf('/', 1);
    if (slash < 0) {
      return Optional.empty();
    }
    Optional<ActionType> type = ActionType.fromWireName(key.substring(1, slash));
    if (type.isEmpty()) {
      return Optional.empty();
    }
    String name = key.substring(slash + 1);
    for (Registry r = this; r != null; r = r.parent) {
      for (ActionResolver resolver : r.resolvers) {
        Action<?, ?, ?> resolved = resolver.resolve(type.get(), name);
        if (resolved != null) {
          // Two threads may resolve the same name at once; the first registration wins.
          Action<?, ?, ?> existing = r.actions.putIfAbsent(key, resolved);
          return Optional.of(existing != null ? existing : resolved);
        }
      }
    }
    return Optional.empty();
  }

  /** Creates actions on demand for names a plugin serves but did not register up front. */
  @FunctionalInterface
  public interface ActionResolver {
    /** The action for this type and name, or null when this resolver does not serve it. */
    @Nullable Action<?, ?, ?> resolve(ActionType type, String name);
  }
}
