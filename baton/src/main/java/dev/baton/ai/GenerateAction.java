package dev.baton.ai;

import dev.baton.core.ActionDef;
import dev.baton.core.ActionType;
import dev.baton.core.Registry;
import java.util.List;

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
          new OutputOptions(
              output.format(), output.jsonSchema(), output.constrained(), output.instructions()));
    }
    List<GenerateActionOptions.MiddlewareRef> use = input.use();
    if (use != null) {
      for (GenerateActionOptions.MiddlewareRef ref : use) {
        options.use(MiddlewareDescriptor.resolve(registry, ref.name(), ref.config()));
      }
    }
    return options.build();
  }
}
