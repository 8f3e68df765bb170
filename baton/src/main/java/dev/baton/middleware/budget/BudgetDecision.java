package dev.baton.middleware.budget;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Json;
import dev.baton.internal.ai.Metadata;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a {@link Budget} hold, sent as the data of a restart of the held call ({@link
 * #restart}). The holds of one run share one decision: the run continues only if no restart of them
 * refuses, and a response to a hold (standing in for the tool's output) refuses it.
 *
 * <pre>{@code
 * List<ToolRequestPart> restarts = new ArrayList<>();
 * for (ToolRequestPart part : response.interrupts()) {
 *   if (Budget.interrupted(part).isPresent()) {
 *     restarts.add(BudgetDecision.approve().restart(part));
 *   }
 * }
 * }</pre>
 *
 * <p>Immutable.
 *
 * @param approved true continues the run with the full limit again; false stops it with a {@code
 *     BudgetExceededException} before it runs the held calls. JSON {@code budgetApproved}
 * @param reason when refused, added to the error the run stops with; null for none
 */
public record BudgetDecision(
    @JsonProperty("budgetApproved") boolean approved, @Nullable String reason) {
  public BudgetDecision {
    reason = reason == null || reason.isEmpty() ? null : reason;
  }

  /** Continue the run, with the full limit again. */
  public static BudgetDecision approve() {
    return new BudgetDecision(true, null);
  }

  /** Stop the run before its held calls run; {@code reason} (or null) goes into the error. */
  public static BudgetDecision refuse(@Nullable String reason) {
    return new BudgetDecision(false, reason);
  }

  /**
   * The restart that answers a held call with this decision: the call as it was requested, with
   * this decision as its {@code metadata.resumed}. Send it in {@code Resume.restart}.
   */
  public ToolRequestPart restart(ToolRequestPart hold) {
    return hold.withMetadata(
        Metadata.with(
            Metadata.without(Metadata.without(hold.metadata(), "interrupt"), "pendingOutput"),
            "resumed",
            Json.toTree(this)));
  }
}
