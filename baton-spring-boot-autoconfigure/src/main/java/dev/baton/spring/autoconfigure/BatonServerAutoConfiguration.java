package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.server.ContextProvider;
import dev.baton.server.internal.protocol.WireProtocol;
import dev.baton.server.internal.servlet.RequestAuth;
import dev.baton.server.internal.servlet.WireServlet;
import dev.baton.spring.autoconfigure.internal.CaseSensitiveHeaderCache;
import dev.baton.spring.autoconfigure.internal.CsrfExemption;
import dev.baton.spring.autoconfigure.internal.SecurityRequestAuth;
import dev.baton.spring.autoconfigure.internal.ServletPaths;
import dev.baton.spring.autoconfigure.internal.ShutdownDeadline;
import dev.baton.spring.autoconfigure.internal.WireProtocolLifecycle;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.CsrfConfigurer;

/**
 * Serves the application's agents and flows in Genkit's wire format on its own servlet container
 * (Tomcat, Jetty or any other), under {@code baton.server.base-path} ({@code /baton} by default):
 *
 * <ul>
 *   <li>{@code POST <base-path>/agents/<name>} runs a turn, answering JSON, or Server-Sent Events
 *       with {@code ?stream=true} or {@code Accept: text/event-stream};
 *   <li>{@code POST <base-path>/agents/<name>/getSnapshot}, {@code .../waitForSnapshot} and {@code
 *       .../abort} read, wait for and abort a server-managed agent's snapshots;
 *   <li>{@code POST <base-path>/flows/<name>} runs a flow.
 * </ul>
 *
 * <p>{@code baton.server.agents} and {@code baton.server.flows} choose what is served, each on its
 * own: {@code *} (the default) serves every local agent, or every flow; names serve those; an empty
 * list serves none. It applies to servlet web applications when {@code baton.server.enabled} is not
 * {@code false}.
 *
 * <p><b>Who is calling.</b> With Spring Security, a request to the base path passes through the
 * application's {@code SecurityFilterChain} first, which refuses what it does not allow (401 for an
 * unauthenticated request); the authenticated user's name becomes Baton's principal ({@code
 * ActionContext.PRINCIPAL}), so a server-managed agent's sessions belong to that user and another
 * user's snapshot or session answers {@code NOT_FOUND}, and the user's granted authorities are
 * under {@link #AUTHORITIES} in the run's auth context; a {@link BatonAuthenticationMapper} bean
 * maps the user otherwise (a JWT claim as the principal, a tenant key). Genkit's clients send no
 * CSRF token, so a {@code Customizer<CsrfConfigurer<HttpSecurity>>} bean ({@code batonCsrf}), which
 * Spring Security applies to every filter chain the application builds from {@code HttpSecurity},
 * leaves out of CSRF protection the requests that a page of another site cannot send: JSON requests
 * to the agent and flow routes that no browser marks cross-site, and the task console's API, whose
 * abort checks its own token and origin. Every other request keeps the check.
 *
 * <p>Without Spring Security, {@link ContextProvider} beans authenticate requests as they do for
 * {@code BatonHandler}: each runs, in the beans' order, before the action, and their maps make its
 * auth context; one that throws refuses the request. For bearer tokens:
 *
 * <pre>{@code
 * @Bean
 * ContextProvider bearerTokens(TokenVerifier verifier) {
 *   return ContextProviders.bearerToken(
 *       token -> {
 *         String user = verifier.userOf(token); // null for an invalid token: 401
 *         return user == null ? null : Map.of(ActionContext.PRINCIPAL, user);
 *       });
 * }
 * }</pre>
 *
 * With Spring Security as well, {@link ContextProvider} beans still run: their maps are merged
 * after the authenticated user's entries (a later key wins), and they may refuse a request; but the
 * authenticated user stays the principal, and a provider that names another refuses the request
 * with {@code PERMISSION_DENIED} (403).
 *
 * <p><b>Shutdown.</b> When the context closes, the served routes drain before Spring Boot's web
 * server shuts down: new Baton requests are refused with 503, running ones and the detached runs
 * they started get what is left of {@code baton.shutdown-grace} (by default {@code
 * spring.lifecycle.timeout-per-shutdown-phase}), counted from the start of the close, to finish,
 * and the requests still running are cancelled; the {@code Baton} bean then aborts any detached run
 * still going once the same grace is over, so it settles as a resumable row. After a plain stop of
 * the context the routes serve again when it starts.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({WireServlet.class, ServletRegistrationBean.class})
@ConditionalOnBooleanProperty(name = "baton.server.enabled", matchIfMissing = true)
@ConditionalOnBean(Baton.class)
@EnableConfigurationProperties(BatonProperties.class)
public final class BatonServerAutoConfiguration {
  /**
   * The key of the auth context under which, with Spring Security, a request's run finds the
   * authenticated user's granted authorities: a list of strings such as {@code ROLE_USER}.
   */
  public static final String AUTHORITIES = "authorities";

  /** Created by Spring. */
  public BatonServerAutoConfiguration() {}

  /**
   * The deadline the served routes drain within, {@link BatonAutoConfiguration}'s when it applies
   * (the {@code Baton} bean's close shares it).
   */
  @Bean
  @ConditionalOnMissingBean
  ShutdownDeadline batonShutdownDeadline(
      BatonProperties properties, Environment environment, ApplicationContext context) {
    return ShutdownDeadline.of(properties, environment, context);
  }

  /**
   * The wire protocol over the {@code Baton} bean, configured by {@code baton.server.*}, {@code
   * baton.console.*} and the application's {@link ContextProvider} beans, started with the context
   * and drained on its stop.
   */
  @Bean
  @ConditionalOnMissingBean
  WireProtocolLifecycle batonWireProtocol(
      Baton baton,
      BatonProperties properties,
      ObjectProvider<ContextProvider> contextProviders,
      ShutdownDeadline shutdownDeadline) {
    BatonProperties.Server server = properties.server();
    WireProtocol.Builder builder = WireProtocol.builder(baton);
    if (servesAll(server.agents(), "baton.server.agents")) {
      builder.allAgents();
    } else {
      builder.agents(server.agents());
    }
    if (servesAll(server.flows(), "baton.server.flows")) {
      builder.allFlows();
    } else {
      builder.flows(server.flows());
    }
    contextProviders.orderedStream().forEach(builder::contextProvider);
    builder
        .maxRequestBytes(server.maxRequestSize().toBytes())
        .keepAliveInterval(server.keepAliveInterval());
    Boolean expose = server.exposeErrorMessages();
    if (expose != null) {
      builder.exposeErrorMessages(expose);
    }
    if (properties.console().enabled()) {
      builder.console(properties.console().path());
      if (properties.console().tokenKey() != null) {
        builder.consoleTokenKey(properties.console().tokenKey());
      }
    }
    return new WireProtocolLifecycle(builder.build(), shutdownDeadline);
  }

  /**
   * Whether a list of names is {@code *}, every one; an empty list serves none.
   *
   * @throws IllegalArgumentException when it mixes {@code *} with names, where one of the two is
   *     surely a mistake
   */
  private static boolean servesAll(List<String> names, String property) {
    if (!names.contains("*")) {
      return false;
    }
    if (names.size() > 1) {
      throw new IllegalArgumentException(
          property + " is either * (every one) or a list of names, not both: " + names);
    }
    return true;
  }

  /** The servlet that serves the routes, mapped at {@code <base-path>/*}. */
  @Bean
  @ConditionalOnMissingBean(name = "batonServlet")
  ServletRegistrationBean<WireServlet> batonServlet(
      WireProtocolLifecycle protocol,
      BatonProperties properties,
      ObjectProvider<RequestAuth> requestAuth) {
    WireServlet servlet =
        new WireServlet(protocol.protocol(), requestAuth.getIfAvailable(() -> RequestAuth.NONE));
    ServletRegistrationBean<WireServlet> registration =
        new ServletRegistrationBean<>(
            servlet, ServletPaths.mapping(properties.server().basePath()));
    registration.setName("batonServlet");
    registration.setAsyncSupported(true);
    registration.setLoadOnStartup(1);
    return registration;
  }

  /**
   * On Jetty, a credential is never read as another that differs from it only in case: see {@link
   * CaseSensitiveHeaderCache}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.jetty.servlet.JettyServletWebServerFactory")
  static final class Jetty {
    @Bean
    WebServerFactoryCustomizer<JettyServletWebServerFactory> batonJettyHeaderCache() {
      return factory -> factory.addServerCustomizers(new CaseSensitiveHeaderCache());
    }
  }

  /**
   * With Spring Security, every {@code HttpSecurity} the application builds a filter chain from
   * leaves to Baton the requests Baton guards itself: see {@link CsrfExemption}. The rest of the
   * chain (who may call, how they authenticate) stays the application's.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(
      name = "org.springframework.security.config.annotation.web.configurers.CsrfConfigurer")
  static final class SpringSecurityCsrf {
    @Bean
    @ConditionalOnMissingBean(name = "batonCsrf")
    Customizer<CsrfConfigurer<HttpSecurity>> batonCsrf(BatonProperties properties) {
      BatonProperties.Console console = properties.console();
      CsrfExemption exemption =
          new CsrfExemption(
              properties.server().basePath(), console.enabled() ? console.path() : null);
      return csrf -> csrf.ignoringRequestMatchers(exemption);
    }
  }

  /** With Spring Security, the authenticated user is Baton's principal. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.security.core.context.SecurityContextHolder")
  static final class SpringSecurity {
    @Bean
    @ConditionalOnMissingBean
    BatonAuthenticationMapper batonAuthenticationMapper() {
      return BatonAuthenticationMapper.byName();
    }

    @Bean
    @ConditionalOnMissingBean
    RequestAuth batonSecurityRequestAuth(BatonAuthenticationMapper mapper) {
      return new SecurityRequestAuth(mapper);
    }
  }
}
