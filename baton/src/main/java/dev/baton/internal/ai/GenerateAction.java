package dev.baton.internal.ai;

import dev.baton.ai.GenerateOptions;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.OutputOptions;
import dev.baton.ai.Tool;
import dev.baton.core.ActionType;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.internal.core.ActionDef;
import java.util.List;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The {@code /util/generate} action: generate driven by JSON, the way Genkit's Dev UI, the
 * reflection API and the conformance suite call it. Its output is the final {@link ModelResponse}
 * with its request, usage and custom data.
 *
 * <p>Stateless and thread-safe.
 */
public final class GenerateAction {
  private GenerateAction() {}

  /** Registers {@code /util/generate} on a registry. */
  public static void register(Registry registry) {
    registry.register(
        ActionDef.builder(
                ActionType.UTIL,
                "generate",
                GenerateActionOptions.class,
                ModelResponse.class,
                ModelResponseChunk.class)
            .description("Generates a model response, running the tool loop.")
            .build(
                (ctx, input, stream) ->
                    Generate.run(
                            ctx,
                            toOptions(ctx.registry(), input).toBuilder().onChunk(stream).build())
                        .response()));
  }

  static GenerateOptions toOptions(Registry registry, GenerateActionOptions input) {
    GenerateOptions.Builder options =
        GenerateOptions.builder()
            .model(input.model())
            .config(input.config())
            .messages(input.messages())
            .toolChoice(input.toolChoice())
            .maxTurns(input.maxTurns())
            .resume(input.resume())
            .returnToolRequests(Boolean.TRUE.equals(input.returnToolRequests()));
    if (input.tools() != null) {
      options.toolNames(input.tools());
    }
    GenerateActionOptions.Output output = input.output();
    if (output != null) {
      options.output(
          OutputOptions.json()
              .withSchema(output.jsonSchema())
              .withFormat(output.format())
              .withConstrained(output.constrained())
              .withInstructions(output.instructions()));
    }
    List<GenerateActionOptions.MiddlewareRef> use = input.use();
    if (use != null) {
      for (GenerateActionOptions.MiddlewareRef ref : use) {
        options.use(MiddlewareDescriptor.lookup(registry, ref.name()), ref.config());
      }
    }
    return options.build();
  }

  /** Generate options as the JSON of a generate request: what a rendered prompt shows. */
  public static JsonNode describe(GenerateOptions options) {
    List<String> tools =
        Stream.concat(options.toolNames().stream(), options.tools().stream().map(Tool::name))
            .toList();
    return Json.toTree(
        new GenerateActionOptions(
            options.model() == null ? "" : options.model().name(),
            Generate.initialMessages(options),
            tools,
            options.toolChoice(),
            options.config(),
            null,
            null,
            null,
            options.maxTurns(),
            null));
  }
}
