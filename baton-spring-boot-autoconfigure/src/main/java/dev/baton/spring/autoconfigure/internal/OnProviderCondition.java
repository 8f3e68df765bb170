package dev.baton.spring.autoconfigure.internal;

import dev.baton.spring.autoconfigure.BatonProperties;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** The condition of {@link ConditionalOnProvider}. */
final class OnProviderCondition extends SpringBootCondition {
  @Override
  public ConditionOutcome getMatchOutcome(
      ConditionContext context, AnnotatedTypeMetadata metadata) {
    Map<String, @Nullable Object> attributes =
        Objects.requireNonNull(
            metadata.getAnnotationAttributes(ConditionalOnProvider.class.getName()));
    ModelProvider provider = (ModelProvider) Objects.requireNonNull(attributes.get("value"));
    BatonProperties properties =
        Binder.get(context.getEnvironment()).bindOrCreate("baton", BatonProperties.class);
    boolean wanted = new ProviderSettings(properties, context.getEnvironment()).wanted(provider);
    String message =
        provider + (wanted ? " is required or has its key" : " is disabled or has no key");
    return wanted ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
  }
}
