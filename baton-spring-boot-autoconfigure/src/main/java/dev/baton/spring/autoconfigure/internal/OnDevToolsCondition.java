package dev.baton.spring.autoconfigure.internal;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Whether Genkit's reflection API is wanted: {@code baton.devtools.enabled} when set, else whether
 * {@code GENKIT_ENV} is {@code dev}, as {@code genkit start} sets it. Both are read through
 * Spring's {@link Environment}, so a property can stand in for the variable.
 */
public final class OnDevToolsCondition extends SpringBootCondition {
  static final String ENABLED = "baton.devtools.enabled";

  /** Created by Spring. */
  public OnDevToolsCondition() {}

  @Override
  public ConditionOutcome getMatchOutcome(
      ConditionContext context, AnnotatedTypeMetadata metadata) {
    Environment environment = context.getEnvironment();
    Boolean enabled = environment.getProperty(ENABLED, Boolean.class);
    if (enabled != null) {
      return enabled
          ? ConditionOutcome.match(ENABLED + " is true")
          : ConditionOutcome.noMatch(ENABLED + " is false");
    }
    return "dev".equals(environment.getProperty("GENKIT_ENV"))
        ? ConditionOutcome.match("GENKIT_ENV is dev")
        : ConditionOutcome.noMatch("neither " + ENABLED + " nor GENKIT_ENV=dev is set");
  }
}
