package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.server.internal.servlet.RequestAuth;
import dev.baton.spring.autoconfigure.internal.ServletPaths;
import dev.baton.spring.autoconfigure.internal.ShutdownDeadline;
import dev.baton.spring.autoconfigure.internal.WireProtocolLifecycle;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.SmartLifecycle;

/** When the routes are served, where, and with which of the application's pieces. */
class ServerAutoConfigurationTest {
  private final WebApplicationContextRunner web =
      new WebApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(BatonServerAutoConfiguration.class))
          .withBean(Baton.class, () -> Baton.builder().experimental().build());

  @Test
  void aServletApplicationServesUnderTheBasePathAsyncAndAtStartup() {
    web.withPropertyValues("baton.server.base-path=/api/agents/")
        .run(
            context -> {
              ServletRegistrationBean<?> servlet =
                  context.getBean("batonServlet", ServletRegistrationBean.class);
              assertThat(servlet.getUrlMappings()).containsExactly("/api/agents/*");
              assertThat(servlet.isAsyncSupported()).isTrue();
              assertThat(context.getBean(WireProtocolLifecycle.class).getPhase())
                  .isEqualTo(SmartLifecycle.DEFAULT_PHASE - 512)
                  .isGreaterThan(SmartLifecycle.DEFAULT_PHASE - 1024);
            });
  }

  @Test
  void nothingIsServedWhenTurnedOffOrOutsideAServletApplication() {
    web.withPropertyValues("baton.server.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(WireProtocolLifecycle.class));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BatonServerAutoConfiguration.class))
        .withBean(Baton.class, () -> Baton.builder().experimental().build())
        .run(context -> assertThat(context).doesNotHaveBean(WireProtocolLifecycle.class));
  }

  @Test
  void theGraceIsBatonsElseTheShutdownPhaseTimeout() {
    web.withPropertyValues("baton.shutdown-grace=7s")
        .run(
            context ->
                assertThat(context.getBean(ShutdownDeadline.class).grace())
                    .isEqualTo(Duration.ofSeconds(7)));
    web.withConfiguration(AutoConfigurations.of(LifecycleAutoConfiguration.class))
        .withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=9s")
        .run(
            context ->
                assertThat(context.getBean(ShutdownDeadline.class).grace())
                    .isEqualTo(Duration.ofSeconds(9)));
  }

  @Test
  void springSecurityMakesTheUserThePrincipalOnlyWhenPresent() {
    web.run(context -> assertThat(context).hasSingleBean(RequestAuth.class));
    web.withClassLoader(new FilteredClassLoader("org.springframework.security"))
        .run(context -> assertThat(context).doesNotHaveBean(RequestAuth.class));
  }

  @Test
  void aBasePathMustBeAnAbsolutePath() {
    assertThat(ServletPaths.mapping("/")).isEqualTo("/*");
    assertThat(ServletPaths.mapping("/baton")).isEqualTo("/baton/*");
    for (String bad : new String[] {"baton", "/baton/*", "/a//b", ""}) {
      assertThatThrownBy(() -> ServletPaths.mapping(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("baton.server.base-path");
    }
    web.withPropertyValues("baton.server.base-path=relative")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("baton.server.base-path must be an absolute path"));
  }
}
