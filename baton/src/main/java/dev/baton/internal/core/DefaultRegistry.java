package dev.baton.internal.core;

import dev.baton.core.Action;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * The registry of a Baton instance, and of one generate call: a {@linkplain #child(Registry) child
 * registry} sees everything its parent holds and adds its own entries, invisible to the parent and
 * to siblings; a generate call puts the tools its middleware contributes there. A child's entry may
 * shadow the parent's. It also carries the instance's tracing.
 *
 * <p>Thread-safe.
 */
public final class DefaultRegistry implements Registry {
  private final @Nullable DefaultRegistry parent;
  private final Tracing tracing;
  private final boolean experimental;
  private final ConcurrentMap<String, Action<?, ?, ?>> actions = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Object> values = new ConcurrentHashMap<>();
  private final List<BiFunction<ActionType, String, @Nullable Action<?, ?, ?>>> resolvers =
      new CopyOnWriteArrayList<>();

  private DefaultRegistry(@Nullable DefaultRegistry parent, Tracing tracing, boolean experimental) {
    this.parent = parent;
    this.tracing = tracing;
    this.experimental = experimental;
  }

  /** A new root registry. */
  public static DefaultRegistry create(Tracing tracing, boolean experimental) {
    return new DefaultRegistry(null, tracing, experimental);
  }

  /**
   * The tracing of the instance a registry belongs to; none for a registry Baton did not create.
   */
  public static Tracing tracing(Registry registry) {
    return registry instanceof DefaultRegistry own ? own.tracing : Tracing.noop();
  }

  /** The root of a registry's family: the instance's own registry. */
  public static Registry root(Registry registry) {
    if (!(registry instanceof DefaultRegistry own)) {
      return registry;
    }
    DefaultRegistry r = own;
    while (r.parent != null) {
      r = r.parent;
    }
    return r;
  }

  /** A new registry that sees a registry's entries and keeps its own apart. */
  public static DefaultRegistry child(Registry registry) {
    if (!(registry instanceof DefaultRegistry own)) {
      throw new IllegalArgumentException("not a registry Baton created: " + registry);
    }
    return new DefaultRegistry(own, own.tracing, own.experimental);
  }

  public Tracing tracing() {
    return tracing;
  }

  @Override
  public boolean isExperimental() {
    return experimental;
  }

  @Override
  public <A extends Action<?, ?, ?>> A register(A action) {
    String key = action.descriptor().key();
    if (actions.putIfAbsent(key, action) != null) {
      throw BatonException.of(Status.ALREADY_EXISTS, "action %s is already registered", key);
    }
    return action;
  }

  @Override
  public void registerValue(String type, String name, Object value) {
    String key = "/" + type + "/" + name;
    if (values.putIfAbsent(key, value) != null) {
      throw BatonException.of(Status.ALREADY_EXISTS, "value %s is already registered", key);
    }
  }

  @Override
  public void addResolver(BiFunction<ActionType, String, @Nullable Action<?, ?, ?>> resolver) {
    resolvers.add(resolver);
  }

  @Override
  public Optional<Action<?, ?, ?>> lookup(String key) {
    for (DefaultRegistry r = this; r != null; r = r.parent) {
      Action<?, ?, ?> found = r.actions.get(key);
      if (found != null) {
        return Optional.of(found);
      }
    }
    return resolve(key);
  }

  @Override
  public Optional<Object> lookupValue(String type, String name) {
    String key = "/" + type + "/" + name;
    for (DefaultRegistry r = this; r != null; r = r.parent) {
      Object found = r.values.get(key);
      if (found != null) {
        return Optional.of(found);
      }
    }
    return Optional.empty();
  }

  /** Every action visible here, a child's entries shadowing its parent's, sorted by key. */
  @Override
  public List<Action<?, ?, ?>> actions() {
    Map<String, Action<?, ?, ?>> all = new LinkedHashMap<>();
    for (DefaultRegistry r = this; r != null; r = r.parent) {
      r.actions.forEach(all::putIfAbsent);
    }
    List<Action<?, ?, ?>> sorted = new ArrayList<>(all.values());
    sorted.sort(Comparator.comparing(a -> a.descriptor().key()));
    return List.copyOf(sorted);
  }

  /** Every value of a type visible here, by name, a child's shadowing its parent's. */
  @Override
  public Map<String, Object> values(String type) {
    String prefix = "/" + type + "/";
    Map<String, Object> found = new LinkedHashMap<>();
    for (DefaultRegistry r = this; r != null; r = r.parent) {
      r.values.forEach(
          (key, value) -> {
            if (key.startsWith(prefix)) {
              found.putIfAbsent(key.substring(prefix.length()), value);
            }
          });
    }
    return Map.copyOf(found);
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
    for (DefaultRegistry r = this; r != null; r = r.parent) {
      for (var resolver : r.resolvers) {
        Action<?, ?, ?> resolved = resolver.apply(type.get(), name);
        if (resolved != null) {
          // Two threads may resolve the same name at once; the first registration wins.
          Action<?, ?, ?> existing = r.actions.putIfAbsent(key, resolved);
          return Optional.of(existing != null ? existing : resolved);
        }
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return parent == null ? "Registry" : "Registry[child]";
  }
}
