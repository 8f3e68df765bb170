package dev.baton.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Baton's one rule for JSON in values: a public value copies every JSON tree it holds in and out,
 * so a tree the caller keeps, or one an accessor hands out, can be changed without changing the
 * value. Values are shared between turns, sessions and threads; a tree that leaked would let one of
 * them change a history, a snapshot or an error under the others.
 *
 * <p>Each library module runs it with a subclass that names its public types:
 *
 * <pre>{@code
 * class JsonValuesAreCopiedTest extends JsonCopyContract {
 *   @Override
 *   protected List<Class<?>> publicTypes() {
 *     return ModuleTypes.publicTypes(BatonServer.class);
 *   }
 * }
 * }</pre>
 *
 * <p>The contract walks every public record, and for every component that holds JSON (a tree, or a
 * list, map or optional of trees) builds the record around a tree it then changes, and changes what
 * the accessor returns. It builds records generically through their canonical constructors, with
 * plain values for the other components ({@link #sample} supplies what it cannot build). Classes
 * that are not records cannot be built generically: {@link #holders()} is their table, and a public
 * class that takes or returns JSON must be in it or in {@link #notHolders()}. A component whose
 * type does not say whether it holds JSON ({@code Object}, a type variable, {@code Map<String,
 * Object>}) is invisible to the walk, so each one must be named in {@link #opaqueComponents()} with
 * the reason the rule holds for it anyway.
 */
public abstract class JsonCopyContract {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The module's public types, for example {@link ModuleTypes#publicTypes}. */
  protected abstract List<Class<?>> publicTypes();

  /** The classes other than records that hold JSON, one line per way a tree goes in and out. */
  protected List<JsonHolder<?>> holders() {
    return List.of();
  }

  /**
   * Public classes that take or return JSON but hold none the rule is about (a function, a builder
   * of a record the walk checks), each with the reason.
   */
  protected Map<Class<?>, String> notHolders() {
    return Map.of();
  }

  /**
   * Record components of a type that could hide a JSON tree, keyed {@code type.component} (binary
   * type name, as {@link Class#getName}), each with the reason the rule holds for it.
   */
  protected Map<String, String> opaqueComponents() {
    return Map.of();
  }

  /**
   * A value of a type that a record needs and the generic samples cannot build (a runtime, a
   * context), or null to let them try.
   */
  protected @Nullable Object sample(Class<?> type) {
    return null;
  }

  /** The name of every record component and table line the contract checks, for a subclass. */
  protected final List<String> checked() {
    return sites().map(Site::toString).toList();
  }

  @TestFactory
  public Stream<DynamicTest> changingATreePassedInLeavesTheValueAsItWas() {
    return sites()
        .map(
            site ->
                DynamicTest.dynamicTest(
                    site.toString(),
                    () -> {
                      List<JsonNode> passedIn = new ArrayList<>();
                      Object value = site.build(passedIn);
                      List<JsonNode> before = copies(trees(site.read(value)));

                      assertFalse(passedIn.isEmpty(), "no tree to change in " + site);
                      passedIn.forEach(JsonCopyContract::changeEverywhere);

                      assertEquals(
                          before,
                          trees(site.read(value)),
                          site + " after a change to the tree it was built with");
                    }));
  }

  @TestFactory
  public Stream<DynamicTest> changingATreeHandedOutLeavesTheValueAsItWas() {
    return sites()
        .map(
            site ->
                DynamicTest.dynamicTest(
                    site.toString(),
                    () -> {
                      Object value = site.build(new ArrayList<>());
                      List<JsonNode> before = copies(trees(site.read(value)));

                      List<JsonNode> handedOut = trees(site.read(value));
                      assertFalse(handedOut.isEmpty(), site + " hands out no tree");
                      handedOut.forEach(JsonCopyContract::changeEverywhere);

                      assertEquals(
                          before,
                          trees(site.read(value)),
                          site + " after a change to what its accessor returned");
                    }));
  }

  /**
   * The walk sees only components typed as JSON: every other one that could hold a tree says why.
   */
  @Test
  public void componentsThatCouldHideATreeAreNamedWithAReason() {
    Set<String> opaque = new TreeSet<>();
    for (Class<?> type : publicTypes()) {
      if (type.isRecord()) {
        for (RecordComponent component : type.getRecordComponents()) {
          if (couldHideJson(component.getGenericType())) {
            opaque.add(type.getName() + "." + component.getName());
          }
        }
      }
    }
    assertAllowList(opaque, opaqueComponents(), "opaqueComponents()");
  }

  /** Classes are not walked: each one whose public members take or return JSON is in the table. */
  @Test
  public void everyClassThatTakesOrReturnsJsonIsInTheTable() {
    Set<String> untabled = new TreeSet<>();
    for (Class<?> type : publicTypes()) {
      if (!type.isRecord()
          && takesOrReturnsJson(type)
          && holders().stream().noneMatch(h -> related(h.type(), type))) {
        untabled.add(type.getName());
      }
    }
    Map<String, String> allowed = new LinkedHashMap<>();
    notHolders().forEach((type, reason) -> allowed.put(type.getName(), reason));
    assertAllowList(untabled, allowed, "holders() or notHolders()");
  }

  private static void assertAllowList(
      Set<String> found, Map<String, String> allowed, String where) {
    List<String> unnamed = found.stream().filter(name -> !allowed.containsKey(name)).toList();
    List<String> stale = allowed.keySet().stream().filter(name -> !found.contains(name)).toList();
    List<String> unexplained =
        allowed.entrySet().stream()
            .filter(e -> e.getValue().isBlank())
            .map(Map.Entry::getKey)
            .toList();
    assertTrue(unnamed.isEmpty(), "name these in " + where + ", with a reason: " + unnamed);
    assertTrue(stale.isEmpty(), where + " names what needs no entry: " + stale);
    assertTrue(unexplained.isEmpty(), where + " gives no reason for " + unexplained);
  }

  private Stream<Site> sites() {
    List<Site> found = new ArrayList<>();
    for (Class<?> type : publicTypes()) {
      if (type.isRecord()) {
        for (RecordComponent component : type.getRecordComponents()) {
          if (holdsJson(component.getGenericType())) {
            found.add(new RecordSite(type, component.getName()));
          }
        }
      }
    }
    for (JsonHolder<?> holder : holders()) {
      found.add(new HolderSite<>(holder));
    }
    return found.stream();
  }

  /** Where a value holds JSON: how to build it around fresh trees and read them back. */
  private interface Site {
    /** The value, built with fresh trees; those the site is about are added to {@code kept}. */
    Object build(List<JsonNode> kept) throws Exception;

    @Nullable Object read(Object value) throws Exception;
  }

  private final class RecordSite implements Site {
    private final Class<?> type;
    private final String component;

    RecordSite(Class<?> type, String component) {
      this.type = type;
      this.component = component;
    }

    @Override
    public Object build(List<JsonNode> kept) throws Exception {
      try {
        return buildRecord(type, component, kept, 0);
      } catch (InvocationTargetException e) {
        throw new AssertionError(
            "cannot build "
                + type.getName()
                + " from generic samples; give its constructor what it needs through sample()",
            e.getCause());
      }
    }

    @Override
    public @Nullable Object read(Object value) throws Exception {
      return type.getMethod(component).invoke(value);
    }

    @Override
    public String toString() {
      return type.getName() + "." + component;
    }
  }

  private static final class HolderSite<T> implements Site {
    private final JsonHolder<T> holder;

    HolderSite(JsonHolder<T> holder) {
      this.holder = holder;
    }

    @Override
    public Object build(List<JsonNode> kept) {
      ObjectNode tree = sampleObject();
      kept.add(tree);
      return holder.build().apply(tree);
    }

    @Override
    @SuppressWarnings("unchecked") // built by the same holder
    public @Nullable Object read(Object value) {
      return holder.read().apply((T) value);
    }

    @Override
    public String toString() {
      return holder.toString();
    }
  }

  /**
   * A record built through its canonical constructor from samples; the trees given to the component
   * named {@code keep} are added to {@code kept}.
   */
  private Record buildRecord(Class<?> type, @Nullable String keep, List<JsonNode> kept, int depth)
      throws Exception {
    RecordComponent[] components = type.getRecordComponents();
    @Nullable Object[] arguments = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      arguments[i] = sample(components[i].getGenericType(), depth + 1);
      if (components[i].getName().equals(keep)) {
        kept.addAll(trees(arguments[i]));
      }
    }
    Constructor<?> canonical =
        type.getDeclaredConstructor(
            Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
    return (Record) canonical.newInstance(arguments);
  }

  private static boolean holdsJson(Type type) {
    return switch (type) {
      case Class<?> c -> JsonNode.class.isAssignableFrom(c);
      case ParameterizedType p when isContainer(p) ->
          Arrays.stream(p.getActualTypeArguments()).anyMatch(JsonCopyContract::holdsJson);
      default -> false;
    };
  }

  /**
   * Whether a tree could be given where this type is declared without the type saying so: {@code
   * Object}, another supertype of trees such as {@code Iterable}, a type variable or wildcard that
   * admits one, or a list, map or optional of such.
   */
  private static boolean couldHideJson(Type type) {
    return switch (type) {
      case Class<?> c -> c != JsonNode.class && c.isAssignableFrom(JsonNode.class);
      case TypeVariable<?> v -> Arrays.stream(v.getBounds()).allMatch(JsonCopyContract::admitsJson);
      case WildcardType w ->
          Arrays.stream(w.getUpperBounds()).allMatch(JsonCopyContract::admitsJson);
      case ParameterizedType p when isContainer(p) ->
          Arrays.stream(p.getActualTypeArguments()).anyMatch(JsonCopyContract::couldHideJson);
      default -> false;
    };
  }

  private static boolean admitsJson(Type bound) {
    return (bound instanceof Class<?> c && c.isAssignableFrom(JsonNode.class))
        || (bound instanceof ParameterizedType p
            && p.getRawType() instanceof Class<?> raw
            && raw.isAssignableFrom(JsonNode.class));
  }

  private static boolean isContainer(ParameterizedType p) {
    return p.getRawType() instanceof Class<?> raw
        && (Collection.class.isAssignableFrom(raw)
            || Map.class.isAssignableFrom(raw)
            || raw == Optional.class);
  }

  /** Whether a public constructor or instance method of the type names JSON in its signature. */
  private static boolean takesOrReturnsJson(Class<?> type) {
    List<Executable> members = new ArrayList<>(List.of(type.getDeclaredConstructors()));
    for (Method method : type.getDeclaredMethods()) {
      if (!Modifier.isStatic(method.getModifiers())) {
        members.add(method);
      }
    }
    return members.stream()
        .filter(m -> Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers()))
        .filter(m -> !m.isSynthetic())
        .anyMatch(
            m ->
                (m instanceof Method method && holdsJson(method.getGenericReturnType()))
                    || Arrays.stream(m.getGenericParameterTypes())
                        .anyMatch(JsonCopyContract::holdsJson));
  }

  /** A table line covers its class, the class around it, and the classes (a builder) inside it. */
  private static boolean related(Class<?> tabled, Class<?> type) {
    return tabled == type
        || tabled.getEnclosingClass() == type
        || type.getEnclosingClass() == tabled;
  }

  /** The trees in a value: the value itself, or those in its list, map or optional. */
  private static List<JsonNode> trees(@Nullable Object value) {
    return switch (value) {
      case JsonNode node -> List.of(node);
      case Collection<?> collection ->
          collection.stream().flatMap(each -> trees(each).stream()).toList();
      case Map<?, ?> map -> map.values().stream().flatMap(each -> trees(each).stream()).toList();
      case Optional<?> optional -> optional.map(JsonCopyContract::trees).orElse(List.of());
      case null, default -> List.of();
    };
  }

  private static List<JsonNode> copies(List<JsonNode> trees) {
    return trees.stream().map(JsonNode::deepCopy).toList();
  }

  /** Adds a field or an element to every container of the tree, the nested ones included. */
  private static void changeEverywhere(JsonNode tree) {
    List<JsonNode> children = new ArrayList<>();
    tree.forEach(children::add);
    children.forEach(JsonCopyContract::changeEverywhere);
    if (tree instanceof ObjectNode object) {
      object.put("changed", true);
    } else if (tree instanceof ArrayNode array) {
      array.add("changed");
    }
  }

  /**
   * A JSON tree that is also a JSON schema, since many values hold one, with a nested object to
   * change.
   */
  private static ObjectNode sampleObject() {
    ObjectNode schema = NODES.objectNode().put("type", "object");
    schema.putObject("properties").putObject("name").put("type", "string");
    return schema;
  }

  /**
   * A plain value of a type: a fresh tree for JSON, a mutable list or map holding one for a list or
   * map of trees, and a simple value of anything else, built recursively for records.
   */
  private @Nullable Object sample(Type type, int depth) throws Exception {
    if (depth > 8) {
      return null;
    }
    if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
      Type[] arguments = p.getActualTypeArguments();
      if (List.class.isAssignableFrom(raw) || raw == Collection.class) {
        List<@Nullable Object> list = new ArrayList<>();
        if (holdsJson(arguments[0])) {
          list.add(sample(arguments[0], depth + 1));
        }
        return list;
      }
      if (raw == Set.class) {
        return Set.of();
      }
      if (Map.class.isAssignableFrom(raw)) {
        Map<@Nullable Object, @Nullable Object> map = new LinkedHashMap<>();
        if (holdsJson(arguments[1])) {
          map.put(sample(arguments[0], depth + 1), sample(arguments[1], depth + 1));
        }
        return map;
      }
      if (raw == Optional.class) {
        return Optional.ofNullable(sample(arguments[0], depth + 1));
      }
      return sample(raw, depth);
    }
    if (!(type instanceof Class<?> c)) {
      return null;
    }
    Object given = sample(c);
    if (given != null) {
      return given;
    }
    if (c == ArrayNode.class) {
      return NODES.arrayNode().add(sampleObject());
    }
    if (JsonNode.class.isAssignableFrom(c)) {
      return sampleObject();
    }
    if (c == String.class || c == Object.class) {
      return "sample";
    }
    if (c == int.class || c == Integer.class) {
      return 1;
    }
    if (c == long.class || c == Long.class) {
      return 1L;
    }
    if (c == double.class || c == Double.class) {
      return 1.0;
    }
    if (c == boolean.class || c == Boolean.class) {
      return false;
    }
    if (c == Instant.class) {
      return Instant.EPOCH;
    }
    if (c == Duration.class) {
      return Duration.ofSeconds(1);
    }
    if (c.isEnum()) {
      Object[] constants = c.getEnumConstants();
      return constants.length == 0 ? null : constants[0];
    }
    if (c == List.class || c == Collection.class) {
      return List.of();
    }
    if (c == Set.class) {
      return Set.of();
    }
    if (c == Map.class) {
      return Map.of();
    }
    if (c == Optional.class) {
      return Optional.empty();
    }
    if (c.isRecord()) {
      try {
        return buildRecord(c, null, new ArrayList<>(), depth);
      } catch (InvocationTargetException e) {
        return null; // the component may take null; if not, the record's own build says so
      }
    }
    if (c.isSealed()) {
      for (Class<?> permitted : c.getPermittedSubclasses()) {
        Object value = sample(permitted, depth + 1);
        if (value != null) {
          return value;
        }
      }
      return null;
    }
    if (c.isInterface() && Modifier.isPublic(c.getModifiers())) {
      // A function or a hook: the record only keeps it.
      return Proxy.newProxyInstance(
          c.getClassLoader(),
          new Class<?>[] {c},
          (proxy, method, args) -> stub(c, proxy, method, args));
    }
    return null;
  }

  /** A function that does nothing and is equal only to itself, as a lambda is. */
  @SuppressWarnings("ReferenceEquality") // identity is a lambda's equality
  private static @Nullable Object stub(
      Class<?> type, Object proxy, Method method, @Nullable Object @Nullable [] args) {
    return switch (method.getName()) {
      case "equals" -> args != null && proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      case "toString" -> type.getSimpleName();
      default -> null;
    };
  }
}
