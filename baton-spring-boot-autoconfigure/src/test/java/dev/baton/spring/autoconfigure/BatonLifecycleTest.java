package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ProgrammableModel;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code Baton} bean closes when the context closes, in its own phase: after the phases that
 * stop serving and Spring Boot's web server (which stop first), before the phases below it. A plain
 * stop leaves it open, so that the context can start again.
 */
class BatonLifecycleTest {
  @Test
  void batonClosesAfterTheServingAndWebServerPhasesAndBeforeLowerOnes() {
    Map<String, Boolean> openWhenStopped = new ConcurrentHashMap<>();
    Contexts.baton()
        .withUserConfiguration(TestApplication.Agents.class, Phases.class)
        .withBean("openWhenStopped", Map.class, () -> openWhenStopped)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              context.close();
            });

    assertThat(openWhenStopped)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "serving", true,
                "web server", true,
                "after Baton", false));
  }

  @Test
  void aStoppedOrPausedContextStartsAgainWithBatonOpenAndLeavesItsDetachedRunGoing() {
    CountDownLatch gate = new CountDownLatch(1);
    try {
      Contexts.baton()
          .withUserConfiguration(TestApplication.Agents.class)
          .withPropertyValues("baton.shutdown-grace=200ms")
          .run(
              context -> {
                Baton baton = context.getBean(Baton.class);
                Agent agent = context.getBean(Agent.class);
                ProgrammableModel model = context.getBean(ProgrammableModel.class);
                CountDownLatch entered = new CountDownLatch(1);
                model.step().signalOnEntry(entered).blockUntil(gate).respondText("went on");
                AgentOutput detached =
                    agent.run(
                        baton.context(),
                        AgentInput.text("a long job").withDetach(true),
                        AgentInit.NEW,
                        StreamCallback.discard());
                assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

                context.stop();
                context.start();
                context.pause();
                context.restart();

                gate.countDown();
                assertThat(baton.drain(Duration.ofSeconds(10))).isTrue();
                SessionSnapshot row = agent.snapshots().get(detached.snapshotId());
                assertThat(row.status()).as("not aborted").isEqualTo(SnapshotStatus.COMPLETED);
                assertThat(row.state().messages().getLast().text()).isEqualTo("went on");
                model.respondText("a new turn");
                AgentOutput next =
                    agent.run(
                        baton.context(),
                        AgentInput.text("again"),
                        AgentInit.NEW,
                        StreamCallback.discard());
                assertThat(next.error()).isNull();
                assertThat(next.message().text()).isEqualTo("a new turn");
              });
    } finally {
      gate.countDown();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Phases {
    @Bean
    SmartLifecycle serving(
        ObjectProvider<Baton> baton,
        ObjectProvider<Agent> agent,
        Map<String, Boolean> openWhenStopped) {
      return new Recorder(
          "serving", SmartLifecycle.DEFAULT_PHASE - 512, baton, agent, openWhenStopped);
    }

    @Bean
    SmartLifecycle webServer(
        ObjectProvider<Baton> baton,
        ObjectProvider<Agent> agent,
        Map<String, Boolean> openWhenStopped) {
      return new Recorder(
          "web server", SmartLifecycle.DEFAULT_PHASE - 1024, baton, agent, openWhenStopped);
    }

    @Bean
    SmartLifecycle afterBaton(
        ObjectProvider<Baton> baton,
        ObjectProvider<Agent> agent,
        Map<String, Boolean> openWhenStopped) {
      return new Recorder(
          "after Baton", SmartLifecycle.DEFAULT_PHASE - 8192, baton, agent, openWhenStopped);
    }
  }

  /** Records, when its phase stops, whether the agent still takes turns. */
  private static final class Recorder implements SmartLifecycle {
    private final String name;
    private final int phase;
    private final ObjectProvider<Baton> baton;
    private final ObjectProvider<Agent> agent;
    private final Map<String, Boolean> openWhenStopped;
    private volatile boolean running;

    Recorder(
        String name,
        int phase,
        ObjectProvider<Baton> baton,
        ObjectProvider<Agent> agent,
        Map<String, Boolean> openWhenStopped) {
      this.name = name;
      this.baton = baton;
      this.phase = phase;
      this.agent = agent;
      this.openWhenStopped = openWhenStopped;
    }

    @Override
    public void start() {
      running = true;
    }

    @Override
    public void stop() {
      openWhenStopped.put(name, takesTurns(baton.getObject(), agent.getObject()));
      running = false;
    }

    @Override
    public boolean isRunning() {
      return running;
    }

    @Override
    public int getPhase() {
      return phase;
    }

    private static boolean takesTurns(Baton baton, Agent agent) {
      try {
        agent.connect(baton.context(), AgentInit.NEW).close();
        return true;
      } catch (BatonException e) {
        assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
        return false;
      }
    }
  }
}
