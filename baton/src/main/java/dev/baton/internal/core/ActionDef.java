package dev.baton.internal.core;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionFunction;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import java.lang.reflect.Type;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The standard {@link Action}: a function with a descriptor, typed input conversion, input
 * validation for JSON callers, and a span around every run. Build one with {@link #builder}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ActionDef<I, O, S> implements Action<I, O, S> {
  private final ActionType type;
  private final String name;
  // The descriptor's schemas and the input validator are built when first asked for: inferring
  // schemas and compiling a validator load hundreds of classes and take most of an instance's
  // start, while a call from Java needs neither. The reflection API and JSON callers ask for them.
  private final Lazy<ActionDescriptor> descriptor;
  private final Lazy<Optional<SchemaValidator>> inputValidator;
  private final JavaType inputType;
  // What a rejected input is called, built once rather than for every JSON call.
  private final String inputName;
  private final ActionFunction<I, O, S> function;
  private final JsonMapper mapper;
  // Kept to define the same action with another mapper.
  private final Builder<I, O, S> definition;

  private ActionDef(Builder<I, O, S> builder, ActionFunction<I, O, S> function) {
    this.definition = builder.copy();
    this.mapper = builder.mapper;
    this.type = builder.type;
    this.name = builder.name;
    // Copied now: the caller may change its trees after the definition.
    JsonNode givenInputSchema = builder.inputSchema == null ? null : Json.copy(builder.inputSchema);
    JsonNode givenOutputSchema =
        builder.outputSchema == null ? null : Json.copy(builder.outputSchema);
    Type inputJavaType = builder.inputType;
    Type outputJavaType = builder.outputType;
    Type streamJavaType = builder.streamType;
    String description = builder.description;
    ObjectNode metadata = builder.metadata;
    JsonMapper mapper = builder.mapper;
    this.descriptor =
        Lazy.of(
            () ->
                ActionDescriptor.builder(type, name)
                    .description(description)
                    .inputSchema(
                        givenInputSchema != null
                            ? givenInputSchema
                            : JsonSchemas.infer(inputJavaType, mapper))
                    .outputSchema(
                        givenOutputSchema != null
                            ? givenOutputSchema
                            : JsonSchemas.infer(outputJavaType, mapper))
                    .streamSchema(
                        streamJavaType == Void.class
                            ? null
                            : JsonSchemas.infer(streamJavaType, mapper))
                    .metadata(metadata)
                    .build());
    this.inputValidator =
        Lazy.of(
            () -> {
              JsonNode schema = Objects.requireNonNull(descriptor.get().inputSchema());
              return acceptsAnything(schema)
                  ? Optional.empty()
                  : Optional.of(SchemaValidator.compile(schema));
            });
    if (givenInputSchema != null) {
      // A schema the caller wrote may be malformed: say so at definition, not at the first call.
      inputValidator.get();
    } else if (type == ActionType.FLOW) {
      // A flow's types are the caller's own: one whose schema cannot be inferred fails at
      // definition, not at the first call or in the Dev UI's action list.
      descriptor.get();
    }
    this.inputType = mapper.getTypeFactory().constructType(builder.inputType);
    this.inputName = "input of " + type.key(name);
    this.function = function;
  }

  /**
   * Starts an action definition.
   *
   * @param inputType the input's Java type; its schema is inferred unless one is given
   * @param outputType the output's Java type
   * @param streamType the chunk type, or {@code Void.class} for an action that does not stream
   */
  public static <I, O, S> Builder<I, O, S> builder(
      ActionType type, String name, Class<I> inputType, Class<O> outputType, Class<S> streamType) {
    return new Builder<>(type, name, inputType, outputType, streamType);
  }

  /** Like {@link #builder(ActionType, String, Class, Class, Class)}, for generic types. */
  public static <I, O, S> Builder<I, O, S> builder(
      ActionType type, String name, Type inputType, Type outputType, Type streamType) {
    return new Builder<>(type, name, inputType, outputType, streamType);
  }

  /** The same action reading and writing its input, output and chunks with another mapper. */
  public ActionDef<I, O, S> withJsonMapper(JsonMapper mapper) {
    return mapper.equals(this.mapper) ? this : definition.copy().jsonMapper(mapper).build(function);
  }

  @Override
  public ActionDescriptor descriptor() {
    return descriptor.get();
  }

  @Override
  public ActionType type() {
    return type;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public O run(ActionContext context, I input, StreamCallback<S> stream) {
    Tracing tracing = DefaultRegistry.tracing(context.registry());
    if (!tracing.isEnabled()) {
      // No span, so no lambdas for one either: this runs for every model call and tool call.
      return function.apply(tracing.untraced(context), input, stream);
    }
    return tracing.inSpan(
        context,
        name,
        "action",
        type.wireName(),
        () -> input,
        ctx -> function.apply(ctx, input, stream));
  }

  @Override
  public JsonNode runJson(
      ActionContext context,
      JsonNode input,
      @Nullable JsonNode init,
      StreamCallback<JsonNode> stream) {
    if (init != null && !init.isNull()) {
      throw BatonException.invalidArgument("action %s does not accept init", type.key(name));
    }
    Optional<SchemaValidator> validator = inputValidator.get();
    if (validator.isPresent()) {
      validator.get().validate(input, inputName);
    }
    I typed = Json.convert(mapper, input, inputType);
    StreamCallback<S> typedStream =
        stream.isDiscarding()
            ? StreamCallback.discard()
            : chunk -> stream.onChunk(Json.toTree(mapper, chunk));
    return Json.toTree(mapper, run(context, typed, typedStream));
  }

  private static boolean acceptsAnything(JsonNode schema) {
    for (var entry : schema.properties()) {
      if (!entry.getKey().equals("$schema") && !entry.getKey().equals("description")) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "Action[" + type.key(name) + "]";
  }

  /** Collects an action's descriptor; {@link #build} adds the function. */
  public static final class Builder<I, O, S> {
    private final ActionType type;
    private final String name;
    private final Type inputType;
    private final Type outputType;
    private final Type streamType;
    private @Nullable String description;
    private @Nullable JsonNode inputSchema;
    private @Nullable JsonNode outputSchema;
    private ObjectNode metadata = Json.object();
    private JsonMapper mapper = Json.mapper();

    private Builder(
        ActionType type, String name, Type inputType, Type outputType, Type streamType) {
      if (name.isBlank()) {
        throw BatonException.invalidArgument("an action name must not be blank");
      }
      this.type = type;
      this.name = name;
      this.inputType = inputType;
      this.outputType = outputType;
      this.streamType = streamType;
    }

    public Builder<I, O, S> description(@Nullable String description) {
      this.description = description;
      return this;
    }

    /** Publishes and validates against this schema instead of the inferred one. */
    public Builder<I, O, S> inputSchema(@Nullable JsonNode inputSchema) {
      this.inputSchema = inputSchema;
      return this;
    }

    /** Publishes this output schema instead of the inferred one. */
    public Builder<I, O, S> outputSchema(@Nullable JsonNode outputSchema) {
      this.outputSchema = outputSchema;
      return this;
    }

    /** Descriptor metadata (copied). */
    public Builder<I, O, S> metadata(ObjectNode metadata) {
      this.metadata = metadata.deepCopy();
      return this;
    }

    /**
     * Reads the input and writes the output and chunks with this mapper, and infers their schemas
     * with its naming strategy; Baton's own by default.
     */
    public Builder<I, O, S> jsonMapper(JsonMapper mapper) {
      this.mapper = mapper;
      return this;
    }

    private Builder<I, O, S> copy() {
      Builder<I, O, S> copy = new Builder<>(type, name, inputType, outputType, streamType);
      copy.description = description;
      copy.inputSchema = inputSchema;
      copy.outputSchema = outputSchema;
      copy.metadata = metadata;
      copy.mapper = mapper;
      return copy;
    }

    public ActionDef<I, O, S> build(ActionFunction<I, O, S> function) {
      return new ActionDef<>(this, function);
    }
  }
}
