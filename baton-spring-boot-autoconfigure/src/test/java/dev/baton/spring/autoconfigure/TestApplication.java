package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.core.Flow;
import dev.baton.testing.ProgrammableModel;
import java.util.Locale;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.PropertySource;

/**
 * The application the module's tests start: agents and a flow declared as beans that take the
 * {@link Baton} and the {@link SessionStore}, as the README shows, everything else from the
 * auto-configuration. It scans no package, so the tests' own configurations stay out of it.
 *
 * <p>Its model is {@link #MODEL}, a {@link ProgrammableModel} bean the tests script. It starts
 * without a {@code DataSource} ({@code test-application.properties}); a test that wants one sets
 * {@code spring.autoconfigure.exclude=} and {@code spring.datasource.url}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@PropertySource("classpath:dev/baton/spring/autoconfigure/test-application.properties")
@Import(TestApplication.Agents.class)
public class TestApplication {
  /** The programmable model's name. */
  public static final String MODEL = "test-model";

  /** The chat agent, {@link Agents#assistant}. */
  public static final String ASSISTANT = "assistant";

  /** The flow that upper-cases its input, {@link Agents#shout}. */
  public static final String SHOUT = "shout";

  /** Starts the application, for trying it by hand. */
  public static void main(String[] args) {
    SpringApplication.run(TestApplication.class, args);
  }

  /**
   * The beans an application declares: its model, agents and flows. Tests that build a context of
   * their own (an {@code ApplicationContextRunner}) take this class as their user configuration.
   */
  @Configuration(proxyBeanMethods = false)
  public static class Agents {
    /** The model every agent here calls, scripted by the tests. */
    @Bean
    public ProgrammableModel testModel(Baton baton) {
      return ProgrammableModel.define(baton.registry(), MODEL);
    }

    /** A chat agent that keeps its sessions in the context's store. */
    @Bean
    public Agent assistant(Baton baton, ProgrammableModel testModel, SessionStore store) {
      return baton.defineAgent(
          ASSISTANT,
          InlinePrompt.builder().model(testModel.name()).system("Be brief.").build(),
          AgentOptions.builder().sessionStore(store).build());
    }

    /** A flow that upper-cases its input. */
    @Bean
    public Flow<String, String, Void> shout(Baton baton) {
      return baton.defineFlow(
          SHOUT, String.class, String.class, (ctx, in) -> in.toUpperCase(Locale.ROOT));
    }
  }
}
