package dev.baton.middleware.budget;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@link Budget} reports when a run reaches its limit: the data a hold carries (read it with
 * {@link Budget#interrupted}), and the details of the {@link BudgetExceededException} a run stops
 * with. Immutable.
 *
 * @param message which limit the run reached, and, for a refused hold, the refusal's reason
 * @param spent what the run (or session) spent, for each capped field of the limit by its JSON name
 *     ({@code "totalTokens"}, {@code "custom.cost"})
 * @param limit the limit of each capped field, by the same names
 */
public record BudgetExceeded(String message, Map<String, Double> spent, Map<String, Double> limit) {
  public BudgetExceeded {
    spent = spent == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(spent));
    limit = limit == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(limit));
  }

  /** A report with its message, before the fields' spend and limits are added. */
  public static BudgetExceeded of(String message) {
    return new BudgetExceeded(message, Map.of(), Map.of());
  }

  public BudgetExceeded withSpent(Map<String, Double> spent) {
    return new BudgetExceeded(message, spent, limit);
  }

  public BudgetExceeded withLimit(Map<String, Double> limit) {
    return new BudgetExceeded(message, spent, limit);
  }
}
