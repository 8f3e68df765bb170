package dev.baton.spring.autoconfigure;

import dev.baton.spring.autoconfigure.internal.MicrometerTelemetry;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.contrib.metrics.micrometer.MicrometerMeterProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/**
 * Baton's spans and {@code gen_ai.*} metrics through the application's observability, so they land
 * where the application's own go. It contributes a {@link BatonCustomizer} that sets the {@link
 * dev.baton.Baton.Builder#openTelemetry OpenTelemetry} the instance records through:
 *
 * <ul>
 *   <li>With an {@code OpenTelemetry} bean (Spring Boot's {@code spring-boot-starter-opentelemetry}
 *       makes one), spans go through it, and so do metrics when the application declares an {@code
 *       SdkMeterProvider} bean, the one Spring Boot then puts in its {@code OpenTelemetry}.
 *   <li>Without an {@code SdkMeterProvider} bean, Spring Boot sends the application's metrics
 *       through Micrometer: when the application has a Micrometer {@code MeterRegistry} and {@code
 *       io.opentelemetry.contrib:opentelemetry-micrometer-meter-provider} is on the class path,
 *       Baton's metrics go to that registry ({@code gen_ai.client.token.usage} and {@code
 *       gen_ai.client.operation.duration} as distribution summaries, the {@code
 *       baton.gen_ai.client.*} counters as counters), its spans still through the {@code
 *       OpenTelemetry} bean if there is one. Without that library the metrics go through the {@code
 *       OpenTelemetry} bean, whose default meter provider exports nowhere. An {@code OpenTelemetry}
 *       bean declared as a {@code BatonTelemetry} ({@code baton-otel}) keeps Baton's metrics: it
 *       exports them itself.
 *   <li>Spans are recorded only through OpenTelemetry: Micrometer Tracing on Brave does not receive
 *       them.
 * </ul>
 *
 * <p>This customizer has order 0: a {@code BatonCustomizer} of the application's without an order
 * runs after it, so one that sets its own {@code OpenTelemetry} wins.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"
    })
public class BatonObservabilityAutoConfiguration {
  /** Created by Spring. */
  public BatonObservabilityAutoConfiguration() {}

  /** Baton's spans and metrics through the application's {@code OpenTelemetry} bean. */
  @Bean
  @Order(0)
  @ConditionalOnBean(OpenTelemetry.class)
  @ConditionalOnMissingBean(MicrometerTelemetry.class)
  BatonCustomizer batonOpenTelemetry(OpenTelemetry openTelemetry) {
    return builder -> builder.openTelemetry(openTelemetry);
  }

  /** Baton's metrics into the application's Micrometer registry. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({MeterRegistry.class, MicrometerMeterProvider.class})
  @ConditionalOnBean(MeterRegistry.class)
  @ConditionalOnMissingBean(
      type = {"io.opentelemetry.sdk.metrics.SdkMeterProvider", "dev.baton.otel.BatonTelemetry"})
  static class MicrometerMetrics {
    @Bean
    @Order(0)
    MicrometerTelemetry batonMicrometerTelemetry(
        MeterRegistry registry, ObjectProvider<OpenTelemetry> openTelemetry) {
      return new MicrometerTelemetry(registry, openTelemetry.getIfUnique());
    }
  }
}
