package dev.baton.internal.core;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionFunction;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.JsonSchemas;
import dev.baton.core.StreamCallback;
import java.lang.reflect.Type;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The standard {@link Action}: a function with a descriptor, typed input conversion, input
 * validation for JSON callers, and a span around every run. Build one with {@link #builder}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ActionDef<I, O, S> implements Action<I, O, S> {
  private final ActionDescriptor descriptor;
  private final JavaType inputType;
  private final @Nullable SchemaValidator inputValidator;
  // What a rejected input is called, built once rather than for every JSON call.
  private final String inputName;
  private final ActionFunction<I, O, S> function;

  private ActionDef(Builder<I, O, S> builder, ActionFunction<I, O, S> function) {
    JsonNode inputSchema =
        builder.inputSchema != null ? builder.inputSchema : JsonSchemas.infer(builder.inputType);
    JsonNode outputSchema =
        builder.outputSchema != null ? builder.outputSchema : JsonSchemas.infer(builder.outputType);
    JsonNode streamSchema =
        builder.streamType == Void.class ? null : JsonSchemas.infer(builder.streamType);
    this.descriptor =
        ActionDescriptor.builder(builder.type, builder.name)
            .description(builder.description)
            .inputSchema(inputSchema)
            .outputSchema(outputSchema)
            .streamSchema(streamSchema)
            .metadata(builder.metadata)
            .build();
    this.inputType = Json.mapper().getTypeFactory().constructType(builder.inputType);
    this.inputValidator =
        acceptsAnything(inputSchema) ? null : SchemaValidator.compile(inputSchema);
    this.inputName = "input of " + descriptor.key();
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

  @Override
  public ActionDescriptor descriptor() {
    return descriptor;
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
        descriptor.name(),
        "action",
        descriptor.type().wireName(),
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
      throw BatonException.invalidArgument("action %s does not accept init", descriptor.key());
    }
    if (inputValidator != null) {
      inputValidator.validate(input, inputName);
    }
    I typed = Json.convert(input, inputType);
    StreamCallback<S> typedStream =
        stream.isDiscarding()
            ? StreamCallback.discard()
            : chunk -> stream.onChunk(Json.toTree(chunk));
    return Json.toTree(run(context, typed, typedStream));
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
    return "Action[" + descriptor.key() + "]";
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

    public ActionDef<I, O, S> build(ActionFunction<I, O, S> function) {
      return new ActionDef<>(this, function);
    }
  }
}
