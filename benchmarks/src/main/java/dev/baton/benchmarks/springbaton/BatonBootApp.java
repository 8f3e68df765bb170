package dev.baton.benchmarks.springbaton;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.benchmarks.BootStartup;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Boot application with Baton: the starter, one agent, and the controller {@link
 * dev.baton.benchmarks.springplain.PlainBootApp} has too. Its agent, {@code chat}, is the one
 * {@code SpringAdapterRound} also serves through {@code BatonHandler}: one model call that answers
 * at once, its session in the starter's in-memory store.
 *
 * <p>Its bean methods are not proxied: nothing calls them but Spring, and a proxied configuration
 * class with a bean method costs the start a CGLIB subclass (over a hundred classes generated and
 * loaded) that the plain application, which has no bean method, never pays; that is the
 * application's choice, not the starter's cost.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class BatonBootApp {
  /** The agent's name, served at {@code /baton/agents/chat}. */
  public static final String AGENT = "chat";

  /** Starts the application; {@code --exit-when-ready} measures its start (see BootStartup). */
  public static void main(String[] args) {
    BootStartup.run(BatonBootApp.class, args);
  }

  /** Defines {@link #AGENT} in {@code baton}, its sessions in {@code store}. */
  public static Agent defineAgent(Baton baton, SessionStore store) {
    ModelResponse answer =
        ModelResponse.of(Message.model("Sure, here is a short answer."), FinishReason.STOP);
    baton.defineModel("bench/chat", ModelInfo.full("bench/chat"), (ctx, request, s) -> answer);
    return baton.defineAgent(
        AGENT,
        InlinePrompt.builder().model("bench/chat").system("Answer briefly.").build(),
        AgentOptions.builder().sessionStore(store).build());
  }

  @Bean
  Agent chat(Baton baton, SessionStore store) {
    return defineAgent(baton, store);
  }

  /** The application's own endpoint, as in the plain application. */
  @RestController
  static class Hello {
    @GetMapping("/hello")
    String hello() {
      return "hello";
    }
  }
}
