package dev.baton.store.postgres;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.EXPIRED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import java.io.IOException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two JVMs sharing the store: a worker JVM (A, {@link FaultWorker}) commits turns and runs a
 * detached task; this JVM (B) kills it with SIGKILL at a random point, or aborts its task. After a
 * kill no committed snapshot is lost or torn, and a task that A left pending reads expired once its
 * heartbeat is older than the timeout, is fenced with an abort and is continued here from its
 * parent snapshot to the end. An abort issued here stops the task running in A, which saves its
 * progress into the aborted row.
 *
 * <p>The trials are random; the seed is printed, and {@code -Dbaton.faultSeed=<seed>} replays them
 * ({@code -Dbaton.faultTrials=<n>} changes their number). The counts are printed at the end.
 */
class PostgresFaultTest {
  private static final int DEFAULT_TRIALS = 9;
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** Where B interrupts A; the trials take turns. */
  private enum Kill {
    /** After a random number of committed turns, while A commits the next or detaches. */
    DURING_COMMITS,
    /** After the detach, a random number of heartbeats into the task's model call. */
    MID_TURN,
    /** Not a kill: B aborts the task A runs, waits for A to save its progress, then kills A. */
    ABORT
  }

  private final TestSchema schema = new TestSchema(TestDatabase.shared());
  private final PostgresSessionStore store = schema.open();
  private final Baton baton = Baton.builder().experimental().build();
  private final Agent agent;
  private final ActionContext context = baton.context();
  private final Map<Kill, Integer> trialsByKill = new EnumMap<>(Kill.class);
  private int committedVerified;
  private int rowsVerified;
  private final Map<Kill, Integer> continuedByKill = new EnumMap<>(Kill.class);
  private int abortsObserved;

  PostgresFaultTest() {
    FaultScenario.model(baton);
    agent = FaultScenario.agent(baton, store);
  }

  @Test
  // A guard against a hang, not a speed bar: each trial starts a JVM, and the nine default trials
  // took up to 140 s on a saturated two-core machine.
  @Timeout(360)
  void killedWorkersLoseNoSnapshotAndTheirTasksAreContinuedElsewhereAndAbortsReachThem()
      throws Exception {
    long seed = Long.getLong("baton.faultSeed", new SecureRandom().nextLong());
    int trials = Integer.getInteger("baton.faultTrials", DEFAULT_TRIALS);
    System.out.printf(
        "fault test: %d trials, seed %d (-Dbaton.faultSeed=%d replays)%n", trials, seed, seed);
    Random random = new Random(seed);
    List<ChildJvm> workers = new ArrayList<>();
    try (schema) {
      // Each worker JVM starts while the trial before it runs, so their start-ups overlap.
      workers.add(startWorker());
      for (int trial = 1; trial <= trials; trial++) {
        if (trial < trials) {
          workers.add(startWorker());
        }
        Kill kill = Kill.values()[(trial - 1) % Kill.values().length];
        trialsByKill.merge(kill, 1, Integer::sum);
        trial(workers.get(trial - 1), trial, kill, 1 + random.nextInt(5), random);
      }
    } finally {
      workers.forEach(ChildJvm::close);
    }
    System.out.printf(
        "fault test: %d trials (%s); %d committed snapshots and %d rows checked, none lost or torn;"
            + " %d tasks expired after a kill and were continued elsewhere (%d of them left pending"
            + " by a kill during commits); %d aborts stopped the task in the other JVM%n",
        trials,
        trialsByKill,
        committedVerified,
        rowsVerified,
        continuedByKill.values().stream().mapToInt(Integer::intValue).sum(),
        continuedByKill.getOrDefault(Kill.DURING_COMMITS, 0),
        abortsObserved);
    assertThat(committedVerified).isPositive();
    // Each trial checked its own outcome; these make sure none was skipped.
    assertThat(continuedByKill.getOrDefault(Kill.MID_TURN, 0))
        .as("tasks killed mid-turn that expired and were continued")
        .isEqualTo(trialsByKill.getOrDefault(Kill.MID_TURN, 0));
    assertThat(abortsObserved).isEqualTo(trialsByKill.getOrDefault(Kill.ABORT, 0));
  }

  private ChildJvm startWorker() throws IOException {
    return ChildJvm.start(FaultWorker.class, TestDatabase.url(), schema.name);
  }

  private void trial(ChildJvm worker, int trial, Kill kill, int turns, Random random)
      throws Exception {
    AgentOutput root = agent.runText(FaultScenario.FIRST_QUESTION);
    String task = "task " + trial;
    List<String> committed = new ArrayList<>();
    worker.await("READY", WAIT);
    worker.send(root.snapshotId() + " " + turns + " " + task);
    int killAfter = kill == Kill.DURING_COMMITS ? 1 + random.nextInt(turns) : turns;
    for (int turn = 1; turn <= killAfter; turn++) {
      committed.add(worker.await("COMMITTED", WAIT).split(" ")[0]);
    }
    String detached = null;
    if (kill != Kill.DURING_COMMITS) {
      String[] line = worker.await("DETACHED", WAIT).split(" ");
      detached = line[0];
      if (kill == Kill.MID_TURN) {
        awaitBeats(detached, random.nextInt(4));
      } else {
        abortRemoteTask(detached, line[1], task);
      }
    }
    worker.kill();
    verifySession(root.sessionId(), committed);
    List<String> pending = rowsWithStatus(root.sessionId(), PENDING);
    switch (kill) {
      // A kill during the commits may come before the detach or after it.
      case DURING_COMMITS -> assertThat(pending).hasSizeLessThanOrEqualTo(1);
      case MID_TURN -> assertThat(pending).as("left pending").containsExactly(detached);
      case ABORT -> assertThat(pending).as("left pending after the abort").isEmpty();
    }
    for (String id : pending) {
      continueExpiredTask(id, task);
      continuedByKill.merge(kill, 1, Integer::sum);
    }
  }

  /** Waits until the worker has beaten {@code beats} times more, and is so still alive. */
  private void awaitBeats(String pendingId, int beats) {
    Instant first = Objects.requireNonNull(agent.snapshots().get(pendingId).heartbeatAt());
    SessionSnapshot beating =
        await()
            .atMost(WAIT)
            .until(
                () -> agent.snapshots().get(pendingId),
                row ->
                    row.heartbeatAt() == null
                        || !row.heartbeatAt()
                            .isBefore(first.plus(FaultScenario.BEAT.multipliedBy(beats))));
    assertThat(beating.status()).isEqualTo(PENDING);
  }

  /** Aborts the task A runs; A hears it, stops, and saves its progress into the aborted row. */
  private void abortRemoteTask(String pendingId, String parentId, String task) {
    assertThat(agent.snapshots().abort(pendingId)).isEqualTo(ABORTED);
    // Waits for A's save, the state: on a starved machine A can miss its heartbeat timeout, and
    // then the row reads as settled (finish reason aborted) before A has saved anything.
    SessionSnapshot settled =
        await()
            .atMost(WAIT)
            .until(
                () -> agent.snapshots().get(pendingId),
                row -> row.finishReason() != null && row.state() != null);
    assertThat(settled.status()).isEqualTo(ABORTED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    List<String> progress = new ArrayList<>(texts(agent.snapshots().get(parentId)));
    progress.add(task);
    assertThat(texts(settled)).isEqualTo(progress);
    abortsObserved++;
  }

  /**
   * A task whose worker died: it reads expired once its last heartbeat is older than the timeout;
   * it is fenced with an abort and continued from its parent snapshot, here, to the end.
   */
  private void continueExpiredTask(String pendingId, String task) {
    SessionSnapshot expired =
        await()
            .atMost(WAIT)
            .until(() -> agent.snapshots().get(pendingId), row -> row.status() == EXPIRED);
    assertThat(Duration.between(expired.heartbeatAt(), Instant.now()))
        .isGreaterThan(FaultScenario.HEARTBEAT_TIMEOUT);
    assertThat(agent.snapshots().abort(pendingId)).isEqualTo(ABORTED);

    String parentId = Objects.requireNonNull(expired.parentId());
    AgentOutput continued = agent.runText(task, AgentInit.continueFrom(parentId));

    assertThat(continued.isFailed()).as("%s", continued.error()).isFalse();
    SessionSnapshot finished = agent.snapshots().get(continued.snapshotId());
    List<String> expected = new ArrayList<>(texts(agent.snapshots().get(parentId)));
    expected.add(task);
    expected.add(FaultScenario.answer(task));
    assertThat(finished.status()).isEqualTo(COMPLETED);
    assertThat(finished.parentId()).isEqualTo(parentId);
    assertThat(texts(finished)).isEqualTo(expected);
  }

  /**
   * Every snapshot A reported committed is there with the messages of its turn, and every row of
   * the session reads back whole, through an instance with an empty cache.
   */
  private void verifySession(String sessionId, List<String> committed) throws SQLException {
    PostgresSessionStore fresh = schema.open();
    for (int turn = 1; turn <= committed.size(); turn++) {
      SessionSnapshot row = fresh.getSnapshot(context, committed.get(turn - 1));
      assertThat(row).as("committed snapshot of turn %d", turn).isNotNull();
      assertThat(row.status()).isEqualTo(COMPLETED);
      assertThat(texts(row)).isEqualTo(FaultScenario.conversation(turn));
      committedVerified++;
    }
    for (String id : rowsWithStatus(sessionId, null)) {
      SessionSnapshot row = fresh.getSnapshot(context, id);
      if (row.state() != null && row.status() == COMPLETED) {
        List<String> texts = texts(row);
        assertThat(texts).isEqualTo(FaultScenario.conversation(texts.size() / 2 - 1));
      }
      rowsVerified++;
    }
  }

  private static List<String> texts(SessionSnapshot row) {
    return Objects.requireNonNull(row.state()).messages().stream().map(Message::text).toList();
  }

  /** The IDs of the session's rows with this stored status, or of all of them. */
  private List<String> rowsWithStatus(String sessionId, dev.baton.agent.SnapshotStatus status)
      throws SQLException {
    String query =
        "SELECT snapshot_id FROM "
            + schema.name
            + ".baton_snapshots WHERE session_id = ?"
            + (status == null ? "" : " AND status = ?")
            + " ORDER BY created_at, snapshot_id";
    List<String> ids = new ArrayList<>();
    try (Connection connection = schema.dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(query)) {
      statement.setString(1, sessionId);
      if (status != null) {
        statement.setString(2, status.wireName());
      }
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          ids.add(rows.getString(1));
        }
      }
    }
    return ids;
  }
}
