package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.testing.ProgrammableModel;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans the chat test applications share: the programmable model {@code model}, the
 * server-managed agent {@code chat} on it, and the flow {@code whoami}, which answers its auth
 * context.
 */
@Configuration(proxyBeanMethods = false)
class ChatBeans {
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
  Object whoami(Baton baton) {
    return baton.defineFlow("whoami", String.class, Map.class, (ctx, in) -> ctx.auth());
  }
}
