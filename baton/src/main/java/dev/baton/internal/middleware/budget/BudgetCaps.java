package dev.baton.internal.middleware.budget;

import dev.baton.ai.GenerationUsage;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.middleware.budget.BudgetExceeded;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The caps of a budget's limit: each of its non-zero fields, and each non-zero {@code custom} key
 * on its own, by JSON name ({@code "totalTokens"}, {@code "custom.cost"}). Usage is read by the
 * same names, a field the models never reported counting as 0. Immutable.
 */
final class BudgetCaps {
  private static final String CUSTOM = "custom";

  private final Map<String, Double> limits;

  private BudgetCaps(Map<String, Double> limits) {
    this.limits = limits;
  }

  /**
   * @throws BatonException {@code INVALID_ARGUMENT} when the limit caps nothing or a field is
   *     negative
   */
  static BudgetCaps of(GenerationUsage limit) {
    Map<String, Double> caps = new LinkedHashMap<>();
    figures(limit)
        .forEach(
            (name, value) -> {
              if (value < 0) {
                throw BatonException.invalidArgument(
                    "budget: limit.%s must not be negative, got %s", name, format(value));
              }
              if (value > 0) {
                caps.put(name, value);
              }
            });
    if (caps.isEmpty()) {
      throw BatonException.invalidArgument(
          "budget: the limit must set at least one non-zero field");
    }
    return new BudgetCaps(Map.copyOf(caps));
  }

  /** Whether any capped field has reached its limit. */
  boolean reached(GenerationUsage spent) {
    Map<String, Double> figures = figures(spent);
    return limits.entrySet().stream()
        .anyMatch(cap -> figures.getOrDefault(cap.getKey(), 0.0) >= cap.getValue());
  }

  /**
   * The report of {@code spent} against the caps, with a message naming the limits reached.
   *
   * @param what whose spend it is, "run" or "session"
   * @param refusal the reason a hold was refused, or null when none was
   */
  BudgetExceeded exceeded(GenerationUsage spent, String what, @Nullable String refusal) {
    Map<String, Double> figures = figures(spent);
    Map<String, Double> spentByCap = new LinkedHashMap<>();
    Map<String, Double> sortedLimits = new TreeMap<>(limits);
    List<String> reached = new ArrayList<>();
    sortedLimits.forEach(
        (name, cap) -> {
          double value = figures.getOrDefault(name, 0.0);
          spentByCap.put(name, value);
          if (value >= cap) {
            reached.add(name + " (spent " + format(value) + " of " + format(cap) + ")");
          }
        });
    StringBuilder message = new StringBuilder("budget exceeded: ");
    if (reached.isEmpty()) {
      message.append("the ").append(what).append(" was stopped");
    } else {
      message
          .append("the ")
          .append(what)
          .append(" reached its limit of ")
          .append(String.join(", ", reached));
    }
    if (refusal != null) {
      message.append("; continuing was refused");
      if (!refusal.isEmpty()) {
        message.append(": ").append(refusal);
      }
    }
    return BudgetExceeded.of(message.toString()).withSpent(spentByCap).withLimit(sortedLimits);
  }

  /** Every figure a usage reports, by JSON name, custom keys as {@code custom.<key>}. */
  private static Map<String, Double> figures(GenerationUsage usage) {
    Map<String, Double> figures = new LinkedHashMap<>();
    for (var field : Json.toTree(usage).properties()) {
      JsonNode value = field.getValue();
      if (field.getKey().equals(CUSTOM)) {
        value
            .properties()
            .forEach(
                custom -> {
                  if (custom.getValue().isNumber()) {
                    figures.put(CUSTOM + "." + custom.getKey(), custom.getValue().asDouble());
                  }
                });
      } else if (value.isNumber()) {
        figures.put(field.getKey(), value.asDouble());
      }
    }
    return figures;
  }

  /** A figure as people write it: 1200, not 1200.0; 0.25 as it is. */
  private static String format(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
