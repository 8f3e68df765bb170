package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.ai.Hooks;
import dev.baton.ai.Middleware;
import dev.baton.ai.Model;
import dev.baton.ai.ModelParams;
import dev.baton.ai.ModelRef;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.util.List;
import java.util.Set;

/**
 * Tries the next model when a model call fails.
 *
 * <p>A call that fails with one of {@link #statuses} goes to each of {@link #models} in turn, with
 * the same request; a reference's config, when it has one, replaces the request's. The last failure
 * is thrown when every model failed. Immutable and thread-safe.
 *
 * @param models the models to fall back to, in order
 * @param statuses statuses that trigger a fallback; default UNAVAILABLE, RESOURCE_EXHAUSTED,
 *     DEADLINE_EXCEEDED, ABORTED, INTERNAL, NOT_FOUND, UNIMPLEMENTED
 */
public record Fallback(
    @JsonPropertyDescription("Models to try in order when a call fails.") List<ModelRef> models,
    @JsonPropertyDescription("Status names that trigger a fallback.") List<Status> statuses)
    implements Middleware {

  public static final List<Status> DEFAULT_STATUSES =
      List.of(
          Status.UNAVAILABLE,
          Status.RESOURCE_EXHAUSTED,
          Status.DEADLINE_EXCEEDED,
          Status.ABORTED,
          Status.INTERNAL,
          Status.NOT_FOUND,
          Status.UNIMPLEMENTED);

  public Fallback {
    models = models == null ? List.of() : List.copyOf(models);
    statuses = statuses == null ? DEFAULT_STATUSES : List.copyOf(statuses);
  }

  /** Falls back to the named models on the default statuses. */
  public static Fallback to(String... modelNames) {
    return new Fallback(
        java.util.Arrays.stream(modelNames).map(ModelRef::of).toList(), DEFAULT_STATUSES);
  }

  @Override
  public String name() {
    return "genkit-middleware/fallback";
  }

  @Override
  public Hooks newHooks(ActionContext context) {
    if (models.isEmpty()) {
      throw BatonException.invalidArgument("fallback needs at least one model");
    }
    Set<Status> triggers = Set.copyOf(statuses);
    return Hooks.builder()
        .wrapModel(
            (ctx, params, next) -> {
              try {
                return next.apply(ctx, params);
              } catch (BatonException first) {
                if (!triggers.contains(first.status())) {
                  throw first;
                }
                BatonException last = first;
                for (ModelRef ref : models) {
                  try {
                    ModelParams alternative =
                        params.withModel(Model.lookup(ctx.registry(), ref.name()));
                    if (ref.config() != null) {
                      alternative =
                          alternative.withRequest(params.request().withConfig(ref.config()));
                    }
                    return next.apply(ctx, alternative);
                  } catch (BatonException e) {
                    if (!triggers.contains(e.status())) {
                      throw e;
                    }
                    last = e;
                  }
                }
                throw last;
              }
            })
        .build();
  }
}
