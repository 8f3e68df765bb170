package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.testing.ProgrammableModel;
import java.util.Map;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.PropertySource;

/**
 * An application, with the auto-configured {@code Baton} and {@code SessionStore} beans and without
 * Spring Security, that serves a server-managed agent, {@code chat}, a client-managed one, {@code
 * stateless}, and a flow, {@code whoami}, that answers its auth context, all on the programmable
 * model {@code model}. Its class path has Spring Security and JDBC, which it leaves out.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
// No OTLP export: the test machine has no collector on localhost.
@PropertySource("classpath:dev/baton/spring/autoconfigure/test-application.properties")
@EnableAutoConfiguration(
    excludeName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
      "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
      "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
      "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
      "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration"
    })
class ChatApp {
  @Bean
  ProgrammableModel model(Baton baton) {
    return ProgrammableModel.define(baton.registry(), "model");
  }

  @Bean
  Agent chat(Baton baton, SessionStore store, ProgrammableModel model) {
    return baton.defineAgent(
        "chat",
        InlinePrompt.builder().model(model.name()).build(),
        AgentOptions.builder().sessionStore(store).build());
  }

  @Bean
  Agent stateless(Baton baton, ProgrammableModel model) {
    return baton.defineAgent(
        "stateless", InlinePrompt.builder().model(model.name()).build(), AgentOptions.DEFAULTS);
  }

  @Bean
  Object whoami(Baton baton) {
    return baton.defineFlow("whoami", String.class, Map.class, (ctx, in) -> ctx.auth());
  }
}
