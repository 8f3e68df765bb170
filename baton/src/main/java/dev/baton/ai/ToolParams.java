package dev.baton.ai;

/**
 * One tool call as a {@link Hooks.WrapTool} hook sees it.
 *
 * @param request the model's request part (with its ref filled in)
 * @param tool the tool that will run
 */
public record ToolParams(ToolRequestPart request, Tool<?, ?> tool) {}
