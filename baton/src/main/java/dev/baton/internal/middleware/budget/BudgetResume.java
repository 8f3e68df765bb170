package dev.baton.internal.middleware.budget;

import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Json;
import dev.baton.middleware.agents.Agents;
import dev.baton.middleware.budget.Budget;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a generate call's resume means to its budgets: the spend the run recorded on the message it
 * resumes ({@code metadata.budget.spent}), and the one decision its answers give the budget holds
 * on that message. A hold answered with a response, or with a restart whose data does not approve
 * it, refuses; the run is approved only when no answer refuses. A call that resumes nothing, or
 * resumes a message without holds, decides nothing. A sub-agent's hold forwarded to this run (a
 * wrapper with {@code subAgent}) is the sub-agent's to decide, not this run's.
 *
 * @param recorded the spend recorded on the resumed message; empty when none was
 * @param decided whether the resume answers budget holds
 * @param approved whether it approves them all
 * @param reason the first refusal's reason, or null
 */
record BudgetResume(
    GenerationUsage recorded, boolean decided, boolean approved, @Nullable String reason) {
  static final String METADATA_KEY = "budget";
  static final String SPENT = "spent";

  private static final BudgetResume NONE =
      new BudgetResume(GenerationUsage.EMPTY, false, false, null);

  static BudgetResume of(GenerateOptions options) {
    Resume resume = options.resume();
    List<Message> messages = options.messages();
    if (resume == null || resume.isEmpty() || messages.isEmpty()) {
      return NONE;
    }
    Message resumed = messages.get(messages.size() - 1);
    if (resumed.role() != Role.MODEL) {
      return NONE;
    }
    GenerationUsage recorded = recordedSpend(resumed.metadata());
    boolean decided = false;
    boolean approved = true;
    String reason = null;
    for (ToolRequestPart held : resumed.toolRequests()) {
      if (Budget.interrupted(held).isEmpty() || forwarded(held)) {
        continue;
      }
      ToolRequest call = held.toolRequest();
      boolean responded =
          resume.respond().stream()
              .anyMatch(
                  r ->
                      r.toolResponse().name().equals(call.name())
                          && Objects.equals(r.toolResponse().ref(), call.ref()));
      ToolRequestPart restart =
          resume.restart().stream()
              .filter(
                  r ->
                      r.toolRequest().name().equals(call.name())
                          && Objects.equals(r.toolRequest().ref(), call.ref()))
              .findFirst()
              .orElse(null);
      if (responded) {
        decided = true;
        approved = false;
      } else if (restart != null) {
        decided = true;
        JsonNode answer = restart.metadata() == null ? null : restart.metadata().get("resumed");
        if (answer == null || !answer.path("budgetApproved").asBoolean(false)) {
          approved = false;
          String given = answer == null ? "" : answer.path("reason").asString("");
          if (reason == null && !given.isEmpty()) {
            reason = given;
          }
        }
      }
    }
    return decided
        ? new BudgetResume(recorded, true, approved, reason)
        : NONE.withRecorded(recorded);
  }

  /**
   * Whether a hold is a sub-agent's, forwarded by the Agents middleware: its wrapper carries the
   * sub-agent's report so that it reads as a budget hold, but its decision is routed to the
   * sub-agent's budget and neither renews nor stops this run.
   */
  private static boolean forwarded(ToolRequestPart held) {
    JsonNode interrupt = held.metadata() == null ? null : held.metadata().get("interrupt");
    return interrupt != null && interrupt.has(Agents.SUB_AGENT);
  }

  private BudgetResume withRecorded(GenerationUsage recorded) {
    return new BudgetResume(recorded, decided, approved, reason);
  }

  /** The spend a run recorded on its final message, or empty. */
  static GenerationUsage recordedSpend(@Nullable ObjectNode metadata) {
    JsonNode spent = metadata == null ? null : metadata.path(METADATA_KEY).get(SPENT);
    return spent == null || !spent.isObject()
        ? GenerationUsage.EMPTY
        : Json.convert(spent, GenerationUsage.class);
  }
}
