package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.ai.Hooks;
import dev.baton.ai.Middleware;
import dev.baton.ai.ToolContext;
import dev.baton.ai.ToolResult;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import java.util.List;
import java.util.Set;

/**
 * Holds tool calls outside an allow list for a human's approval.
 *
 * <p>A call to a tool not in {@link #approved} does not run: it interrupts the loop with {@code
 * {"toolApproval": {"tool": "<name>"}}}. The caller approves it by restarting the call with {@code
 * metadata.resumed = {"toolApproved": true}}, which runs the tool, or declines it by responding to
 * the call with an answer of its own. Immutable and thread-safe.
 *
 * @param approved tools that run without asking
 */
public record ToolApproval(
    @JsonPropertyDescription("Tools that run without approval; every other tool call interrupts.")
        List<String> approved)
    implements Middleware {

  public ToolApproval {
    approved = approved == null ? List.of() : List.copyOf(approved);
  }

  public static ToolApproval allowing(String... tools) {
    return new ToolApproval(List.of(tools));
  }

  @Override
  public String name() {
    return "genkit-middleware/toolApproval";
  }

  @Override
  public Hooks newHooks(ActionContext context) {
    Set<String> allowed = Set.copyOf(approved);
    return Hooks.builder()
        .wrapTool(
            (ctx, params, next) -> {
              String tool = params.tool().name();
              boolean approvedNow =
                  ToolContext.of(ctx)
                      .resumed()
                      .map(data -> data.path("toolApproved").asBoolean(false))
                      .orElse(false);
              if (allowed.contains(tool) || approvedNow) {
                return next.apply(ctx, params);
              }
              var data = Json.object();
              data.putObject("toolApproval").put("tool", tool);
              return ToolResult.interrupt(data);
            })
        .build();
  }
}
