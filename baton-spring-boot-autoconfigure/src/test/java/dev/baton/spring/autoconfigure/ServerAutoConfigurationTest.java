package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.core.ActionContext;
import dev.baton.server.internal.servlet.RequestAuth;
import dev.baton.spring.autoconfigure.internal.ServletPaths;
import dev.baton.spring.autoconfigure.internal.ShutdownDeadline;
import dev.baton.spring.autoconfigure.internal.WireProtocolLifecycle;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;

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
    new ReactiveWebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BatonServerAutoConfiguration.class))
        .withBean(Baton.class, () -> Baton.builder().experimental().build())
        .run(
            context ->
                assertThat(context)
                    .as("a reactive application has no servlet container to serve on")
                    .hasNotFailed()
                    .doesNotHaveBean(WireProtocolLifecycle.class)
                    .doesNotHaveBean("batonServlet"));
  }

  @Test
  void theProtocolServesFromCreationBeforeAnyLifecycleStarts() {
    web.run(
        context ->
            assertThat(context.getBean(WireProtocolLifecycle.class).isRunning())
                .as("running, so the web server's connector never opens on a 503")
                .isTrue());
  }

  @Test
  void anAuthenticationMapperBeanMapsTheUserToTheAuthContext() {
    var authentication =
        UsernamePasswordAuthenticationToken.authenticated(
            "alice", "n/a", List.of(new SimpleGrantedAuthority("ROLE_USER")));
    web.run(
        context -> {
          SecurityContextHolder.getContext().setAuthentication(authentication);
          try {
            assertThat(Map.<String, Object>copyOf(context.getBean(RequestAuth.class).of(null)))
                .containsEntry(ActionContext.PRINCIPAL, "alice")
                .containsEntry(BatonServerAutoConfiguration.AUTHORITIES, List.of("ROLE_USER"));
          } finally {
            SecurityContextHolder.clearContext();
          }
        });
    web.withBean(
            BatonAuthenticationMapper.class,
            () ->
                user -> Map.of(ActionContext.PRINCIPAL, "sub-" + user.getName(), "tenant", "acme"))
        .run(
            context -> {
              SecurityContextHolder.getContext().setAuthentication(authentication);
              try {
                assertThat(Map.<String, Object>copyOf(context.getBean(RequestAuth.class).of(null)))
                    .containsOnly(
                        Map.entry(ActionContext.PRINCIPAL, "sub-alice"),
                        Map.entry("tenant", "acme"));
              } finally {
                SecurityContextHolder.clearContext();
              }
            });
  }

  @Test
  void anAgentOrFlowListIsStarOrNamesNotBoth() {
    web.withPropertyValues("baton.server.flows=*,whoami")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("baton.server.flows is either * (every one)"));
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

  @Test
  void theRootIsRefusedAsABasePathSinceItWouldHideTheApplicationsOtherEndpoints() {
    for (String root : new String[] {"/", "//", " / "}) {
      web.withPropertyValues("baton.server.base-path=" + root)
          .run(
              context ->
                  assertThat(context)
                      .as(root)
                      .getFailure()
                      .rootCause()
                      .hasMessageContaining("baton.server.base-path must not be /")
                      .hasMessageContaining("Spring MVC"));
    }
  }
}
