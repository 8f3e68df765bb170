package dev.baton.spring.autoconfigure.internal;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when a model plugin is required ({@code baton.<plugin>.enabled} is true), or when that is
 * unset and its key or project is found ({@link ProviderSettings#wanted}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(OnProviderCondition.class)
public @interface ConditionalOnProvider {
  /** The plugin. */
  ModelProvider value();
}
