package dev.baton.middleware.budget;

import dev.baton.ai.GenerateResponse;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The error a generate run stops with when a {@link Budget} caps it: status {@link
 * Status#RESOURCE_EXHAUSTED}, a public message saying which limit the run reached, and details
 * {@code {"message", "spent", "limit"}} with the spend and the limit of every capped field by its
 * JSON name ({@code "totalTokens"}, {@code "custom.cost"}).
 *
 * <p>The run is stopped, not failed: it keeps its partial response ({@link #partialResponse}). An
 * agent turn that ends with this error ends {@code aborted}: its output carries the error, the
 * partial response as its message, and the progress the turn made, which a server-managed agent
 * saves as an {@code aborted} snapshot to continue from.
 *
 * <p>A budget stops only the run it wraps: when a nested run (a tool's own generate call) stops,
 * the run around it fails with an ordinary {@link BatonException} of the same status, message and
 * details. Immutable.
 */
public final class BudgetExceededException extends BatonException {
  private static final long serialVersionUID = 1L;

  private final transient GenerateResponse partialResponse;

  /**
   * @param partialResponse the run as it stood: the conversation so far, its last model response
   *     (before the call's first model call, the message it resumes; a response with an empty
   *     message when a new run stopped before its first model call) and the usage of its calls
   */
  public BudgetExceededException(
      String message, @Nullable JsonNode details, GenerateResponse partialResponse) {
    super(Status.RESOURCE_EXHAUSTED, message, details, true, null);
    this.partialResponse = partialResponse;
  }

  /** The run as it stood when it stopped. */
  public GenerateResponse partialResponse() {
    return partialResponse;
  }
}
