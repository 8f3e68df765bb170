package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.ai.InlinePrompt;
import dev.baton.testing.ProgrammableModel;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.PropertySource;

/**
 * An application, with the auto-configured {@code Baton} and {@code SessionStore} beans and without
 * Spring Security, that serves a server-managed agent, {@code chat}, a client-managed one, {@code
 * stateless}, and a flow, {@code whoami}, that answers its auth context, all on the programmable
 * model {@code model}. Its class path has Spring Security and JDBC, which it leaves out.
 */
@WithoutSecurityOrJdbc
// No OTLP export: the test machine has no collector on localhost.
@PropertySource("classpath:dev/baton/spring/autoconfigure/test-application.properties")
@Import(ChatBeans.class)
class ChatApp {
  @Bean
  Agent stateless(Baton baton, ProgrammableModel model) {
    return baton.defineAgent(
        "stateless", InlinePrompt.builder().model(model.name()).build(), AgentOptions.DEFAULTS);
  }
}
