package dev.baton.spring.autoconfigure;

import jakarta.servlet.DispatcherType;
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
 * An application whose filter chain keeps Spring Security's CSRF protection as it comes, without a
 * word about Baton: every request authenticated over HTTP Basic (the user alice), and the agent
 * {@code chat} and the flow {@code whoami} served with the task console.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
// No OTLP export: the test machine has no collector on localhost.
@PropertySource("classpath:dev/baton/spring/autoconfigure/test-application.properties")
@EnableAutoConfiguration(
    excludeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@Import(ChatBeans.class)
class CsrfProtectedApp {
  @Bean
  SecurityFilterChain security(HttpSecurity http) {
    return http.authorizeHttpRequests(
            requests ->
                // Spring's own refusals (a CSRF failure's 403) show as they are.
                requests
                    .dispatcherTypeMatchers(DispatcherType.ERROR)
                    .permitAll()
                    .anyRequest()
                    .authenticated())
        .httpBasic(Customizer.withDefaults())
        .build();
  }

  @Bean
  InMemoryUserDetailsManager users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("alice").password("{noop}alice-secret").roles("USER").build());
  }
}
