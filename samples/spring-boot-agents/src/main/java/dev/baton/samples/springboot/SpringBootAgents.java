package dev.baton.samples.springboot;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.SessionStore;
import dev.baton.samples.basicagents.IncidentRoom;
import dev.baton.samples.basicagents.Team;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * basic-agents' two orchestrators as a Spring Boot application: the coordinator, which delegates to
 * a researcher and a coder and waits for them, and the incident commander, which starts two slow
 * investigators in the background. Each agent is a bean that takes the {@link Baton} and the {@link
 * SessionStore} the starter provides; the starter serves them all under {@code /baton} on port
 * 8080. {@code application.yaml} holds the rest: the model ({@link AgentModel}) and the database
 * ({@link Postgres}, which is why Boot's own {@code DataSource} auto-configuration is left out).
 */
@SpringBootApplication(exclude = DataSourceAutoConfiguration.class)
public class SpringBootAgents {
  /** Where delegations, task states and status updates are reported as they happen. */
  private static final Logger LOG = LoggerFactory.getLogger("agents");

  /** Starts the application. */
  public static void main(String[] args) {
    SpringApplication.run(SpringBootAgents.class, args);
  }

  @Bean
  Agent researcher(Baton baton, AgentModel model) {
    return Team.researcher(baton, model.name());
  }

  @Bean
  Agent coder(Baton baton, AgentModel model) {
    return Team.coder(baton, model.name());
  }

  @Bean
  Agent coordinator(
      Baton baton, SessionStore store, AgentModel model, Agent researcher, Agent coder) {
    return Team.coordinator(baton, model.name(), LOG::info, store, researcher, coder);
  }

  /** The commander, with its log analyst and deploy auditor, which the commander defines. */
  @Bean
  Agent commander(Baton baton, SessionStore store, AgentModel model) {
    // The demo's investigators are quick; real ones take seconds, like Genkit's sample.
    Duration slowness = model.isDemo() ? Duration.ofMillis(150) : Duration.ofSeconds(1);
    return new IncidentRoom(LOG::info, slowness).define(baton, model.name(), store);
  }
}
