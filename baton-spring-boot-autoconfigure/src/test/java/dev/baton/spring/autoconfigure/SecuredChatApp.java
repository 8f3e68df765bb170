package dev.baton.spring.autoconfigure;

import dev.baton.core.ActionContext;
import dev.baton.server.ContextProvider;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.PropertySource;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * An application whose Spring Security filter chain lets in two users over HTTP Basic, alice (a
 * user) and bob (a user and an auditor), and serves the agent {@code chat} and the flow {@code
 * whoami}, which answers its auth context. A context provider adds the {@code X-Plan} header to the
 * auth context, and binds the {@code X-Act-As} header as a principal: one that tries to replace the
 * authenticated user.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
// No OTLP export: the test machine has no collector on localhost.
@PropertySource("classpath:dev/baton/spring/autoconfigure/test-application.properties")
@EnableAutoConfiguration(
    excludeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@Import(ChatBeans.class)
class SecuredChatApp {
  @Bean
  SecurityFilterChain security(HttpSecurity http) {
    return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
        .httpBasic(Customizer.withDefaults())
        .csrf(csrf -> csrf.ignoringRequestMatchers("/baton/**"))
        .build();
  }

  @Bean
  InMemoryUserDetailsManager users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("alice").password("{noop}alice-secret").roles("USER").build(),
        User.withUsername("bob").password("{noop}bob-secret").roles("USER", "AUDITOR").build());
  }

  @Bean
  ContextProvider headers() {
    return request -> {
      Map<String, Object> auth = new HashMap<>();
      String plan = request.header("x-plan");
      String actAs = request.header("x-act-as");
      if (plan != null) {
        auth.put("plan", plan);
      }
      if (actAs != null) {
        auth.put(ActionContext.PRINCIPAL, actAs);
      }
      return auth;
    };
  }
}
