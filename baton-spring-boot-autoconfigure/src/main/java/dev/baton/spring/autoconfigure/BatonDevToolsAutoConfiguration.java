package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.devtools.DevTools;
import dev.baton.spring.autoconfigure.internal.DevToolsLifecycle;
import dev.baton.spring.autoconfigure.internal.OnDevToolsCondition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Genkit's reflection API for the {@link Baton} bean, as {@code baton-devtools} serves it, so that
 * {@code genkit start -- ./mvnw spring-boot:run} and the Developer UI list, run and trace the
 * application's agents and flows. On when {@code baton-devtools} is on the class path and {@code
 * baton.devtools.enabled} is true, or, when that is unset, {@code GENKIT_ENV=dev} (as {@code genkit
 * start} sets it); both are read through Spring's {@code Environment}.
 *
 * <p>The API starts once the application is ready and stops with the context, before the instance
 * closes. It listens on {@code 127.0.0.1} at {@code GENKIT_REFLECTION_PORT} (a property or the
 * variable), else the first free port from 3100, and writes its runtime file under the project root
 * found from the working directory, as {@link DevTools} describes. The Developer UI shows traces
 * when the instance records through a {@code BatonTelemetry} ({@code baton-otel}): declare one as
 * the application's {@code OpenTelemetry} bean, in a development profile.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnClass(DevTools.class)
@Conditional(OnDevToolsCondition.class)
public class BatonDevToolsAutoConfiguration {
  /** Created by Spring. */
  public BatonDevToolsAutoConfiguration() {}

  @Bean
  @ConditionalOnSingleCandidate(Baton.class)
  DevToolsLifecycle batonDevTools(Baton baton, Environment environment) {
    return new DevToolsLifecycle(baton, environment);
  }
}
