package dev.baton.ai;

import dev.baton.core.ActionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * The hooks one middleware contributes to one generate call. Every member is optional.
 *
 * <p>Hooks are interceptor chains: each receives the call's parameters and {@code next}, the rest
 * of the chain, and usually does something, calls {@code next.apply(ctx, params)}, and does
 * something with the result.
 *
 * @param tools tools available to this generate call only; they live in a child registry that no
 *     other call sees
 * @param wrapGenerate runs around each tool-loop iteration (N tool rounds mean N + 1 calls)
 * @param wrapModel runs around each model call (Retry and Fallback hook in here)
 * @param wrapTool runs around each tool call; it may run on several threads at once, so it must be
 *     thread-safe
 */
public record Hooks(
    List<Tool<?, ?>> tools,
    @Nullable WrapGenerate wrapGenerate,
    @Nullable WrapModel wrapModel,
    @Nullable WrapTool wrapTool) {

  public Hooks {
    tools = List.copyOf(tools);
  }

  /** Hooks that do nothing. */
  public static final Hooks NONE = new Hooks(List.of(), null, null, null);

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Wraps one tool-loop iteration. {@code next} is the rest of the iteration's chain: the inner
   * hooks, then the model call.
   */
  @FunctionalInterface
  public interface WrapGenerate {
    ModelResponse apply(
        ActionContext context,
        GenerateParams params,
        BiFunction<ActionContext, GenerateParams, ModelResponse> next);
  }

  /** Wraps one model call. {@code next} is the rest of the call's chain. */
  @FunctionalInterface
  public interface WrapModel {
    ModelResponse apply(
        ActionContext context,
        ModelParams params,
        BiFunction<ActionContext, ModelParams, ModelResponse> next);
  }

  /** Wraps one tool call. {@code next} is the rest of the call's chain. */
  @FunctionalInterface
  public interface WrapTool {
    ToolResult apply(
        ActionContext context,
        ToolParams params,
        BiFunction<ActionContext, ToolParams, ToolResult> next);
  }

  /** Collects hooks. Not thread-safe. */
  public static final class Builder {
    private final List<Tool<?, ?>> tools = new ArrayList<>();
    private @Nullable WrapGenerate wrapGenerate;
    private @Nullable WrapModel wrapModel;
    private @Nullable WrapTool wrapTool;

    private Builder() {}

    public Builder tool(Tool<?, ?> tool) {
      tools.add(tool);
      return this;
    }

    public Builder tools(List<? extends Tool<?, ?>> tools) {
      this.tools.addAll(tools);
      return this;
    }

    public Builder wrapGenerate(WrapGenerate hook) {
      this.wrapGenerate = hook;
      return this;
    }

    public Builder wrapModel(WrapModel hook) {
      this.wrapModel = hook;
      return this;
    }

    public Builder wrapTool(WrapTool hook) {
      this.wrapTool = hook;
      return this;
    }

    public Hooks build() {
      return new Hooks(tools, wrapGenerate, wrapModel, wrapTool);
    }
  }
}
