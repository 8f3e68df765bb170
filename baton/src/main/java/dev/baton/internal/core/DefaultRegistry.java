package dev.baton.internal.core;

import dev.baton.core.Action;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The registry of a Baton instance, and of one generate call: a {@linkplain #child(Registry) child
 * registry} sees everything its parent holds and adds its own entries, invisible to the parent and
 * to siblings; a generate call puts the tools its middleware contributes there. A child's entry may
 * shadow the parent's. It also carries the instance's tracing, and values derived from the
 * instance's entries ({@link #derived}).
 *
 * <p>Thread-safe.
 */
public final class DefaultRegistry implements Registry {
  private static final ActionType[] TYPES = ActionType.values();

  private final @Nullable DefaultRegistry parent;
  private final Tracing tracing;
  private final Timing timing;
  private final boolean experimental;
  private final Lifecycle lifecycle;
  private final JsonMapper jsonMapper;
  // Actions by type, then by name, so that a lookup by type and name builds no key string. A
  // type's map is created with its first action: a generate call's child holds only tools.
  private final AtomicReferenceArray<@Nullable ConcurrentMap<String, Action<?, ?, ?>>> actions =
      new AtomicReferenceArray<>(TYPES.length);
  private final ConcurrentMap<String, Object> values = new ConcurrentHashMap<>();
  private final List<BiFunction<ActionType, String, @Nullable Action<?, ?, ?>>> resolvers =
      new CopyOnWriteArrayList<>();
  // The root's only: bumped by every change to what lookups can find, so that derived values know
  // when to be rebuilt. A child (one per generate call) derives nothing.
  private final @Nullable AtomicLong version;
  private final @Nullable ConcurrentMap<Object, Derived<?>> derived;

  /** A value derived from the entries as they stood at {@code version}. */
  private record Derived<V>(long version, V value) {}

  /** Beyond this many keys the derived values are dropped and rebuilt as they are asked for. */
  private static final int MAX_DERIVED = 256;

  private DefaultRegistry(
      @Nullable DefaultRegistry parent,
      Tracing tracing,
      Timing timing,
      boolean experimental,
      Lifecycle lifecycle,
      JsonMapper jsonMapper) {
    this.parent = parent;
    this.tracing = tracing;
    this.timing = timing;
    this.experimental = experimental;
    this.lifecycle = lifecycle;
    this.jsonMapper = jsonMapper;
    this.version = parent == null ? new AtomicLong() : null;
    this.derived = parent == null ? new ConcurrentHashMap<>() : null;
  }

  /** A new root registry, on the JVM's clock, Baton's own timers and Baton's own mapper. */
  public static DefaultRegistry create(Tracing tracing, boolean experimental) {
    return create(tracing, Timing.system(), experimental, Json.mapper());
  }

  /**
   * A new root registry whose instance reads the time and runs its timers through {@code timing},
   * and reads and writes the application's types with {@code jsonMapper}.
   */
  public static DefaultRegistry create(
      Tracing tracing, Timing timing, boolean experimental, JsonMapper jsonMapper) {
    return new DefaultRegistry(null, tracing, timing, experimental, new Lifecycle(), jsonMapper);
  }

  /**
   * The clock and timers of the instance a registry belongs to; the system's for a registry Baton
   * did not create.
   */
  public static Timing timing(Registry registry) {
    return registry instanceof DefaultRegistry own ? own.timing : Timing.system();
  }

  /**
   * The mapper for the application's own types in the instance a registry belongs to; Baton's own
   * for a registry Baton did not create.
   */
  public static JsonMapper jsonMapper(Registry registry) {
    return registry instanceof DefaultRegistry own ? own.jsonMapper : Json.mapper();
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
    return new DefaultRegistry(
        own, own.tracing, own.timing, own.experimental, own.lifecycle, own.jsonMapper);
  }

  public Tracing tracing() {
    return tracing;
  }

  /**
   * What the instance a registry belongs to owns and ends on close: its turns, detached runs and
   * threads.
   *
   * @throws IllegalArgumentException for a registry Baton did not create
   */
  public static Lifecycle lifecycle(Registry registry) {
    if (!(registry instanceof DefaultRegistry own)) {
      throw new IllegalArgumentException("not a registry Baton created: " + registry);
    }
    return own.lifecycle;
  }

  /**
   * A value computed from the entries of a registry's root (its instance's registry), such as the
   * tools and instructions a middleware configuration builds: computed once per key, and again
   * after anything is registered in the root, so that it never reflects a stale registry. Keys are
   * compared with {@code equals}, so equal configurations share one value. A registry Baton did not
   * create gets a fresh value on every call.
   *
   * @param key what the value is derived for (a middleware configuration)
   * @param compute builds the value from the root registry; it may run more than once for one key
   *     when callers race, and must not register anything
   */
  @SuppressWarnings("unchecked")
  public static <V> V derived(Registry registry, Object key, Function<Registry, V> compute) {
    if (!(root(registry) instanceof DefaultRegistry root)
        || root.version == null
        || root.derived == null) {
      return compute.apply(registry);
    }
    long current = root.version.get();
    Derived<?> found = root.derived.get(key);
    if (found != null && found.version() == current) {
      return (V) found.value();
    }
    // The version is read before computing: a registration racing the computation leaves the
    // value tagged with the older version, so the next call computes it again.
    V value = compute.apply(root);
    if (root.derived.size() >= MAX_DERIVED) {
      root.derived.clear();
    }
    root.derived.put(key, new Derived<>(current, value));
    return value;
  }

  @Override
  public boolean isExperimental() {
    return experimental;
  }

  @Override
  public <A extends Action<?, ?, ?>> A register(A action) {
    // By type and name, not by descriptor: building one infers its schemas.
    if (actionsOf(action.type()).putIfAbsent(action.name(), action) != null) {
      throw BatonException.of(
          Status.ALREADY_EXISTS,
          "action %s is already registered",
          action.type().key(action.name()));
    }
    changed();
    return action;
  }

  @SuppressWarnings("EnumOrdinal") // actions is indexed by type, as described there
  private ConcurrentMap<String, Action<?, ?, ?>> actionsOf(ActionType type) {
    ConcurrentMap<String, Action<?, ?, ?>> byName = actions.get(type.ordinal());
    if (byName == null) {
      actions.compareAndSet(type.ordinal(), null, new ConcurrentHashMap<>());
      byName = Objects.requireNonNull(actions.get(type.ordinal()));
    }
    return byName;
  }

  @Override
  public void registerValue(String type, String name, Object value) {
    String key = "/" + type + "/" + name;
    if (values.putIfAbsent(key, value) != null) {
      throw BatonException.of(Status.ALREADY_EXISTS, "value %s is already registered", key);
    }
    changed();
  }

  @Override
  public void addResolver(BiFunction<ActionType, String, @Nullable Action<?, ?, ?>> resolver) {
    resolvers.add(resolver);
    changed();
  }

  /** The action with this key: {@code /<type>/<name>}, where the name may hold slashes. */
  @Override
  public Optional<Action<?, ?, ?>> lookup(String key) {
    int slash = key.indexOf('/', 1);
    if (!key.startsWith("/") || slash < 0) {
      return Optional.empty();
    }
    Optional<ActionType> type = ActionType.fromWireName(key.substring(1, slash));
    return type.isEmpty() ? Optional.empty() : lookup(type.get(), key.substring(slash + 1));
  }

  @Override
  @SuppressWarnings("EnumOrdinal") // actions is indexed by type
  public Optional<Action<?, ?, ?>> lookup(ActionType type, String name) {
    for (DefaultRegistry r = this; r != null; r = r.parent) {
      ConcurrentMap<String, Action<?, ?, ?>> byName = r.actions.get(type.ordinal());
      Action<?, ?, ?> found = byName == null ? null : byName.get(name);
      if (found != null) {
        return Optional.of(found);
      }
    }
    return resolve(type, name);
  }

  private void changed() {
    if (version != null) {
      version.incrementAndGet();
    }
  }

  @Override
  public Optional<Object> lookupValue(String type, String name) {
    String key = "/" + type + "/" + name;
    for (DefaultRegistry r = this; r != null; r = r.parent) {
      Object found = r.values.get(key);
      if (found != null) {
        return Optional.of(resolved(found));
      }
    }
    return Optional.empty();
  }

  /** Every action visible here, a child's entries shadowing its parent's, sorted by key. */
  @Override
  public List<Action<?, ?, ?>> actions() {
    // Sorted by the keys they were filed under: asking an action for its type and name may ask for
    // its descriptor, which may fail, and one failing action must not fail the whole listing.
    Map<String, Action<?, ?, ?>> all = new TreeMap<>();
    for (DefaultRegistry r = this; r != null; r = r.parent) {
      for (int t = 0; t < TYPES.length; t++) {
        ConcurrentMap<String, Action<?, ?, ?>> byName = r.actions.get(t);
        ActionType type = TYPES[t];
        if (byName != null) {
          byName.forEach((name, a) -> all.putIfAbsent(type.key(name), a));
        }
      }
    }
    return List.copyOf(all.values());
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
              found.putIfAbsent(key.substring(prefix.length()), resolved(value));
            }
          });
    }
    return Map.copyOf(found);
  }

  /**
   * A value as it is read: a {@link Lazy} one is computed on its first read, so that a value costly
   * to build (a middleware descriptor's schema) costs nothing to an instance that never reads it.
   */
  private static Object resolved(Object value) {
    return value instanceof Lazy<?> lazy ? lazy.get() : value;
  }

  private Optional<Action<?, ?, ?>> resolve(ActionType type, String name) {
    for (DefaultRegistry r = this; r != null; r = r.parent) {
      for (var resolver : r.resolvers) {
        Action<?, ?, ?> resolved = resolver.apply(type, name);
        if (resolved != null) {
          // Two threads may resolve the same name at once; the first registration wins.
          Action<?, ?, ?> existing = r.actionsOf(type).putIfAbsent(name, resolved);
          if (existing == null) {
            r.changed();
          }
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
