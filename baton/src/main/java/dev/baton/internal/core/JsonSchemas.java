package dev.baton.internal.core;

import com.fasterxml.classmate.ResolvedType;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import com.github.victools.jsonschema.module.jackson.JacksonSchemaModule;
import dev.baton.core.Json;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategy;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON Schema (draft-07, as Genkit uses) inferred from Java types.
 *
 * <p>Records and classes become objects whose properties follow Jackson's view of the type (so
 * {@code @JsonProperty} renames apply). A component is required unless it is {@code Optional}, a
 * collection or a map (which read as empty when absent), annotated {@code @Nullable}, or marked
 * {@link Defaulted}. A {@code JsonNode} component accepts any JSON value. Enums become {@code enum}
 * lists of their JSON values; lists and sets become arrays, maps become objects with {@code
 * additionalProperties}. Descriptions come from Jackson's {@code @JsonPropertyDescription} and
 * {@code @JsonClassDescription}. Nested types are inlined, because several model providers reject
 * {@code $ref}; a recursive type falls back to {@code definitions}.
 *
 * <p>Thread-safe; results are cached per class (without keeping the class loaded) and every call
 * returns a fresh copy.
 */
public final class JsonSchemas {
  /** The {@code $schema} value every inferred schema carries. */
  public static final String DRAFT_07 = "http://json-schema.org/draft-07/schema#";

  private static final ClassValue<ObjectNode> CACHE =
      new ClassValue<>() {
        @Override
        protected ObjectNode computeValue(Class<?> type) {
          return generate(type);
        }
      };

  private JsonSchemas() {}

  /**
   * The schema of a Java type. {@code JsonNode} and {@code Object} give the empty schema (any
   * JSON).
   */
  public static ObjectNode infer(Type type) {
    ObjectNode schema = type instanceof Class<?> cls ? CACHE.get(cls) : generate(type);
    return schema.deepCopy();
  }

  /**
   * The schema of a Java type as {@code mapper} reads and writes it: property names follow its
   * naming strategy unless {@code @JsonProperty} names them. Baton's own mapper gives {@link
   * #infer(Type)}; another is not cached, as its callers keep what they infer.
   */
  public static ObjectNode infer(Type type, JsonMapper mapper) {
    PropertyNamingStrategy naming = mapper.serializationConfig().getPropertyNamingStrategy();
    if (naming == null || mapper.equals(Json.mapper())) {
      return infer(type);
    }
    return generate(type, inlineAll -> generator(inlineAll, naming));
  }

  /** The empty schema, which accepts any JSON value: {@code {"$schema": "…draft-07…"}}. */
  public static ObjectNode any() {
    ObjectNode schema = Json.object();
    schema.put("$schema", DRAFT_07);
    return schema;
  }

  private static boolean isAny(Type type) {
    return type == Object.class
        || (type instanceof Class<?> cls && JsonNode.class.isAssignableFrom(cls));
  }

  private static ObjectNode generate(Type type) {
    return generate(
        type, inlineAll -> inlineAll ? Generators.INLINING : Generators.WITH_DEFINITIONS);
  }

  /** A schema from the generator that inlines everything, or the other when it cannot. */
  private static ObjectNode generate(Type type, Function<Boolean, SchemaGenerator> generators) {
    if (isAny(type)) {
      return any();
    }
    try {
      return generators.apply(true).generateSchema(type);
    } catch (IllegalArgumentException recursive) {
      // Inlining a type that refers to itself is impossible; keep the $refs for that one.
      return generators.apply(false).generateSchema(type);
    }
  }

  /**
   * The generators, built when the first schema is inferred rather than when this class loads: they
   * load a few hundred classes, which {@link #any()} and the schemas of JSON types never need.
   */
  private static final class Generators {
    static final SchemaGenerator INLINING = generator(true, null);
    static final SchemaGenerator WITH_DEFINITIONS = generator(false, null);
  }

  private static SchemaGenerator generator(
      boolean inlineAll, @Nullable PropertyNamingStrategy naming) {
    SchemaGeneratorConfigBuilder builder =
        new SchemaGeneratorConfigBuilder(
                Json.mapper(), SchemaVersion.DRAFT_7, OptionPreset.PLAIN_JSON)
            .with(new JacksonSchemaModule(JacksonOption.RESPECT_JSONPROPERTY_ORDER))
            .with(Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES)
            // Optional<T> is read as plain T below: the built-in handling adds a "null" type.
            .without(Option.FLATTENED_OPTIONALS, Option.SIMPLIFIED_OPTIONALS);
    if (inlineAll) {
      builder.with(Option.INLINE_ALL_SCHEMAS);
    }
    builder.forFields().withRequiredCheck(JsonSchemas::isRequired);
    // Absence is expressed through "required"; "type": [..., "null"] unions trip up providers.
    builder.forFields().withNullableCheck(field -> false);
    builder
        .forFields()
        .withTargetTypeOverridesResolver(
            field ->
                field.getType().isInstanceOf(Optional.class)
                    ? List.of(field.getTypeParameterFor(Optional.class, 0))
                    : null);
    builder.forTypesInGeneral().withCustomDefinitionProvider(JsonSchemas::customDefinition);
    if (naming != null) {
      // The Jackson module adds its resolvers when the config is built, after this one, so this
      // one leaves the names @JsonProperty gives alone itself.
      builder
          .forFields()
          .withPropertyNameOverrideResolver(
              field ->
                  hasExplicitName(field)
                      ? null
                      : naming.nameForField(null, null, field.getDeclaredName()));
    }
    return new SchemaGenerator(builder.build());
  }

  private static boolean hasExplicitName(FieldScope field) {
    JsonProperty property = field.getAnnotationConsideringFieldAndGetter(JsonProperty.class);
    return property != null && !property.value().isEmpty();
  }

  /**
   * Any JSON for {@code JsonNode}s; enum values as Jackson writes them, so {@code @JsonValue} and
   * {@code @JsonProperty} apply.
   */
  private static @Nullable CustomDefinition customDefinition(
      ResolvedType type, SchemaGenerationContext context) {
    if (JsonNode.class.isAssignableFrom(type.getErasedType())) {
      return new CustomDefinition(Json.object(), true);
    }
    Object[] constants = type.getErasedType().getEnumConstants();
    if (constants == null) {
      return null;
    }
    ObjectNode definition = Json.object();
    ArrayNode values = Json.nodes().arrayNode();
    for (Object constant : constants) {
      values.add(Json.toTree(constant));
    }
    if (values.valueStream().allMatch(JsonNode::isString)) {
      definition.put("type", "string");
    }
    definition.set("enum", values);
    return new CustomDefinition(definition, true);
  }

  private static boolean isRequired(FieldScope field) {
    if (field.getRawMember() == null) {
      return false;
    }
    Class<?> type = field.getRawMember().getType();
    if (Optional.class.isAssignableFrom(type)
        || Collection.class.isAssignableFrom(type)
        || Map.class.isAssignableFrom(type)
        || field.getRawMember().isAnnotationPresent(Defaulted.class)) {
      return false;
    }
    return !field.getRawMember().getAnnotatedType().isAnnotationPresent(Nullable.class);
  }
}
