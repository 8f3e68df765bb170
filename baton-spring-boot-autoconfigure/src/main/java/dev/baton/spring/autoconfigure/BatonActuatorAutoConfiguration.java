package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.agent.SessionStore;
import dev.baton.spring.autoconfigure.internal.BatonHealthIndicator;
import dev.baton.spring.autoconfigure.internal.BatonInfoContributor;
import dev.baton.spring.autoconfigure.internal.ProviderKeys;
import dev.baton.spring.autoconfigure.internal.ProviderSettings;
import org.springframework.boot.actuate.autoconfigure.info.ConditionalOnEnabledInfoContributor;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Baton in Spring Boot Actuator, when its health and info support is on the class path.
 *
 * <ul>
 *   <li>The {@code baton} health ({@code management.health.baton.enabled}): {@code UP} when the
 *       session store answers a read (of a snapshot ID no row has); {@code DOWN} otherwise. Its
 *       details name the store's class and, when the read failed, the error's class and Baton
 *       status (never its message, which may hold a connection string), and each model plugin on
 *       the class path as {@code configured} when the {@code Baton} bean has one of its type
 *       (however it was added: by its key, as a bean, or by a {@code BatonCustomizer}), or, unless
 *       turned off, with the property or variable that would give it its key (never the key). A
 *       plugin without its key does not make the health DOWN: one the application requires ({@code
 *       baton.<plugin>.enabled=true}) fails the start instead. The health needs one {@code Baton}
 *       and one {@code SessionStore} bean (or a primary one).
 *   <li>The {@code baton} info ({@code management.info.baton.enabled}): Baton's version, and the
 *       instance's agents (name and description), flows and models.
 * </ul>
 *
 * Spring Boot shows a health's details only to those {@code
 * management.endpoint.health.show-details} allows, and exposes the info endpoint over HTTP only
 * when {@code management.endpoints.web.exposure.include} names it.
 */
@AutoConfiguration(after = {BatonAutoConfiguration.class, BatonStoreAutoConfiguration.class})
public class BatonActuatorAutoConfiguration {
  /** Created by Spring. */
  public BatonActuatorAutoConfiguration() {}

  /** The {@code baton} health. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @ConditionalOnEnabledHealthIndicator("baton")
  @ConditionalOnSingleCandidate(Baton.class)
  static class HealthConfiguration {
    @Bean
    @ConditionalOnSingleCandidate(SessionStore.class)
    @ConditionalOnMissingBean(name = "batonHealthIndicator")
    BatonHealthIndicator batonHealthIndicator(
        Baton baton, SessionStore store, BatonProperties properties, Environment environment) {
      ProviderKeys providers =
          new ProviderKeys(
              new ProviderSettings(properties, environment),
              baton,
              BatonActuatorAutoConfiguration.class.getClassLoader());
      return new BatonHealthIndicator(baton, store, providers);
    }
  }

  /** The {@code baton} info. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({InfoContributor.class, ConditionalOnEnabledInfoContributor.class})
  @ConditionalOnEnabledInfoContributor("baton")
  static class InfoConfiguration {
    @Bean
    @ConditionalOnSingleCandidate(Baton.class)
    @ConditionalOnMissingBean(name = "batonInfoContributor")
    BatonInfoContributor batonInfoContributor(Baton baton) {
      return new BatonInfoContributor(baton);
    }
  }
}
