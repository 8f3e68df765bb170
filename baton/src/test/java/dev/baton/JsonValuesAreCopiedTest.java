package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
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
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Baton's one rule for JSON in values: a public record copies every JSON tree it holds in and out,
 * so a tree the caller keeps, or one an accessor hands out, can be changed without changing the
 * record. Records are shared between turns, sessions and threads; a tree that leaked would let one
 * of them change a history, a snapshot or an error under the others.
 *
 * <p>The test walks every public record of the baton jar (the reviewed list of {@link
 * PublicApiTest}) and, for every component that holds JSON (a tree, or a list or map of trees),
 * builds the record around a tree it then changes, and changes what the accessor returns. It builds
 * records generically through their canonical constructors, with plain values for the other
 * components. A new record that holds JSON is checked as soon as it is listed, and one the test
 * cannot build fails it until {@link #sample} learns what its constructor needs.
 */
class JsonValuesAreCopiedTest {
  private static final Baton BATON = Baton.builder().build();

  static Stream<JsonComponent> jsonComponents() throws IOException {
    List<JsonComponent> found = new ArrayList<>();
    for (Class<?> type : publicTypes()) {
      if (!type.isRecord()) {
        continue;
      }
      for (RecordComponent component : type.getRecordComponents()) {
        if (holdsJson(component.getGenericType())) {
          found.add(new JsonComponent(type, component));
        }
      }
    }
    return found.stream();
  }

  /** Keeps the walk honest: it must find the JSON the rule is about. */
  @Test
  void theWalkFindsTheRecordsThatHoldJson() throws IOException {
    List<String> names = jsonComponents().map(JsonComponent::toString).toList();
    assertThat(names)
        .contains(
            "dev.baton.ai.Message.metadata",
            "dev.baton.ai.GenerateResponse.output",
            "dev.baton.core.ActionDescriptor.metadata");
  }

  @ParameterizedTest
  @MethodSource("jsonComponents")
  void changingTheTreePassedInLeavesTheRecordAsItWas(JsonComponent json) throws Exception {
    List<JsonNode> passedIn = new ArrayList<>();
    Record value = json.build(passedIn);
    String before = Json.write(json.read(value));

    assertThat(passedIn).as("the trees %s was built with", json).isNotEmpty();
    passedIn.forEach(JsonValuesAreCopiedTest::changeEverywhere);

    assertThat(Json.write(json.read(value)))
        .as("%s after a change to the tree it was built with", json)
        .isEqualTo(before);
  }

  @ParameterizedTest
  @MethodSource("jsonComponents")
  void changingTheTreeHandedOutLeavesTheRecordAsItWas(JsonComponent json) throws Exception {
    Record value = json.build(new ArrayList<>());
    String before = Json.write(json.read(value));

    List<JsonNode> handedOut = trees(json.read(value));
    assertThat(handedOut).as("the trees %s hands out", json).isNotEmpty();
    handedOut.forEach(JsonValuesAreCopiedTest::changeEverywhere);

    assertThat(Json.write(json.read(value)))
        .as("%s after a change to what its accessor returned", json)
        .isEqualTo(before);
  }

  /** One component that holds JSON, and how to build its record around a tree the test keeps. */
  record JsonComponent(Class<?> type, RecordComponent component) {
    /** The record, built with fresh trees; those of this component are added to {@code kept}. */
    Record build(List<JsonNode> kept) throws Exception {
      try {
        return JsonValuesAreCopiedTest.build(type, component, kept, 0);
      } catch (InvocationTargetException e) {
        throw new AssertionError(
            "cannot build "
                + type.getName()
                + " from generic samples; teach sample() the values its constructor needs",
            e.getCause());
      }
    }

    @Nullable Object read(Record value) throws Exception {
      return component.getAccessor().invoke(value);
    }

    @Override
    public String toString() {
      return type.getName() + "." + component.getName();
    }
  }

  /**
   * A record built through its canonical constructor from samples; the trees given to {@code keep}
   * are added to {@code kept}.
   */
  private static Record build(
      Class<?> type, @Nullable RecordComponent keep, List<JsonNode> kept, int depth)
      throws Exception {
    RecordComponent[] components = type.getRecordComponents();
    Object[] arguments = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent each = components[i];
      arguments[i] = sample(each.getGenericType(), depth + 1);
      // RecordComponent has no equals of its own: every getRecordComponents() call makes new ones.
      if (keep != null && each.getName().equals(keep.getName())) {
        kept.addAll(trees(arguments[i]));
      }
    }
    Constructor<?> canonical =
        type.getDeclaredConstructor(
            Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
    return (Record) canonical.newInstance(arguments);
  }

  private static List<Class<?>> publicTypes() throws IOException {
    try (InputStream in = PublicApiTest.class.getResourceAsStream("public-api.txt")) {
      List<Class<?>> types = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
        if (!line.isBlank() && !line.startsWith("#")) {
          try {
            types.add(Class.forName(line));
          } catch (ClassNotFoundException e) {
            throw new AssertionError("public-api.txt lists a missing type " + line, e);
          }
        }
      }
      return types;
    }
  }

  private static boolean holdsJson(Type type) {
    return switch (type) {
      case Class<?> c -> JsonNode.class.isAssignableFrom(c);
      case ParameterizedType p
          when p.getRawType() instanceof Class<?> raw
              && (Collection.class.isAssignableFrom(raw)
                  || Map.class.isAssignableFrom(raw)
                  || raw == Optional.class) ->
          Arrays.stream(p.getActualTypeArguments()).anyMatch(JsonValuesAreCopiedTest::holdsJson);
      default -> false;
    };
  }

  /** The trees in a component's value: the value itself, or those in its list or map. */
  private static List<JsonNode> trees(@Nullable Object value) {
    return switch (value) {
      case JsonNode node -> List.of(node);
      case Collection<?> collection ->
          collection.stream().flatMap(each -> trees(each).stream()).toList();
      case Map<?, ?> map -> map.values().stream().flatMap(each -> trees(each).stream()).toList();
      case Optional<?> optional -> optional.map(JsonValuesAreCopiedTest::trees).orElse(List.of());
      case null, default -> List.of();
    };
  }

  /** Adds a field or an element to every container of the tree, the nested ones included. */
  private static void changeEverywhere(JsonNode tree) {
    List<JsonNode> children = new ArrayList<>();
    tree.forEach(children::add);
    children.forEach(JsonValuesAreCopiedTest::changeEverywhere);
    if (tree instanceof ObjectNode object) {
      object.put("changed", true);
    } else if (tree instanceof ArrayNode array) {
      array.add("changed");
    }
  }

  /**
   * A JSON tree that is also a JSON schema, since several components hold one, with a nested object
   * to change.
   */
  private static ObjectNode sampleObject() {
    ObjectNode schema = Json.object().put("type", "object");
    schema.putObject("properties").putObject("name").put("type", "string");
    return schema;
  }

  /**
   * A plain value of a type: a fresh tree for JSON, a mutable list or map holding one for a list or
   * map of trees, and a simple value of anything else, built recursively for records.
   */
  private static @Nullable Object sample(Type type, int depth) throws Exception {
    if (depth > 8) {
      return null;
    }
    if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
      Type[] arguments = p.getActualTypeArguments();
      if (List.class.isAssignableFrom(raw) || raw == Collection.class) {
        List<Object> list = new ArrayList<>();
        if (holdsJson(arguments[0])) {
          list.add(sample(arguments[0], depth + 1));
        }
        return list;
      }
      if (raw == Set.class) {
        return Set.of();
      }
      if (Map.class.isAssignableFrom(raw)) {
        Map<Object, Object> map = new LinkedHashMap<>();
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
    if (c == ArrayNode.class) {
      ArrayNode array = Json.nodes().arrayNode();
      array.add(sampleObject());
      return array;
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
      return c.getEnumConstants()[0];
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
    if (c == ActionContext.class) {
      return BATON.context();
    }
    if (c == Registry.class) {
      return BATON.registry();
    }
    if (c == Baton.class) {
      return BATON;
    }
    if (c.isRecord()) {
      try {
        return build(c, null, new ArrayList<>(), depth);
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
          (proxy, method, args) ->
              switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                case "toString" -> c.getSimpleName();
                default -> null;
              });
    }
    return null;
  }
}
