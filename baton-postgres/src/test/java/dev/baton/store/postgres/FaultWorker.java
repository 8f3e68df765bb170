package dev.baton.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ProgrammableModel;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * JVM A of the fault test. Arguments: JDBC URL, schema. Once it has started it prints {@code READY}
 * and reads one line from its input: the snapshot to continue, a number of turns and a task,
 * separated by spaces (so the test can start it ahead, while the previous trial finishes). It runs
 * the turns one after the other, printing {@code COMMITTED <snapshot> <turn>} after each, then
 * starts the task detached, with a model call that never answers, prints {@code DETACHED <pending
 * snapshot> <parent snapshot>}, and waits to be killed. The detached run heartbeats, and stops and
 * saves its progress when it is aborted, from any JVM.
 */
final class FaultWorker {
  private FaultWorker() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String schema = args[1];

    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(4);
    HikariDataSource pool = new HikariDataSource(config);
    PostgresSessionStore store = PostgresSessionStore.builder(pool).schema(schema).build();
    Baton baton = Baton.builder().experimental().build();
    ProgrammableModel model = FaultScenario.model(baton);
    Agent agent = FaultScenario.agent(baton, store);
    store.getSnapshot(baton.context(), "warm-up"); // connects, and finds the tables
    print("READY");
    String[] work =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
            .readLine()
            .split(" ", 3);
    String previous = work[0];
    int turns = Integer.parseInt(work[1]);
    String task = work[2];

    for (int turn = 1; turn <= turns; turn++) {
      AgentOutput output =
          agent.runText(FaultScenario.question(turn), AgentInit.ofSnapshot(previous));
      if (output.isFailed()) {
        throw new IllegalStateException("turn " + turn + " failed: " + output.error());
      }
      previous = output.snapshotId();
      print("COMMITTED " + previous + " " + turn);
    }
    // The task's model call never answers: the task runs until it is aborted or its JVM dies.
    model
        .step()
        .blockUntil(new CountDownLatch(1))
        .respond(ModelResponse.of(Message.model("never sent"), FinishReason.STOP));
    AgentOutput detached =
        agent.run(
            baton.context(),
            AgentInput.text(task).withDetach(true),
            AgentInit.ofSnapshot(previous),
            StreamCallback.discard());
    print("DETACHED " + detached.snapshotId() + " " + previous);
    new CountDownLatch(1).await();
  }

  private static void print(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
