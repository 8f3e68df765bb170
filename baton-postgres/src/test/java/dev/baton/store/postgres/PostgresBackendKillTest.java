package dev.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.StreamCallback;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store's server processes are ended at random ({@code pg_terminate_backend}, as an
 * administrator, a crash or a failover ends them) while an agent on the store runs conversations,
 * detaches runs, aborts them and waits for them, the way durable-execution systems test themselves.
 * Afterwards, read through a fresh instance: every turn that was acknowledged is there with its
 * exchange and the exchanges acknowledged before it, none twice; every detach that was acknowledged
 * settled with its answer, or, when it was aborted, with its progress; and every error a caller
 * saw, in an output or thrown, was {@code UNAVAILABLE}, the outage it was.
 *
 * <p>The kills follow the traffic: each round waits for the store to take a random few connections
 * from its pool, then ends every server process of the pool, mid-statement or idle. Which few is
 * random; the seed is printed, and {@code -Dbaton.killSeed=<seed>} replays the choices (not the
 * timing). The counts are printed at the end.
 */
class PostgresBackendKillTest {
  private static final int CONVERSATIONS = 3;
  private static final int TURNS = 20;
  private static final int DETACHERS = 2;
  private static final int DETACHES = 10;
  private static final int ABORTERS = 2;
  private static final int ABORTS = 6;
  private static final int KILL_ROUNDS = 150;

  /** How many times a client tries one call (an abort, a wait) that keeps failing UNAVAILABLE. */
  private static final int CALL_ATTEMPTS = 50;

  /** A turn whose input starts so runs until it is aborted. */
  private static final String HOLD = "hold ";

  /**
   * The statuses a client may see while the store's backends die: an outage, a conflict still
   * unresolved after the store's attempts, a wait's read that ran out of time.
   */
  private static final Set<String> DOCUMENTED =
      Set.of("UNAVAILABLE", "ABORTED", "DEADLINE_EXCEEDED");

  private static final Pattern QUESTION = Pattern.compile("(\\S+) q(\\d+)");

  private final ActionContext context = Baton.builder().build().context();
  private final TestSchema schema = new TestSchema(TestDatabase.shared());
  private final String applicationName = "baton-kill-" + schema.name;
  private final HikariDataSource pool = TestDatabase.pool(8, applicationName);
  private final FaultyDataSource traffic = new FaultyDataSource(pool);
  private final PostgresSessionStore store =
      schema.open(
          traffic.dataSource(),
          options -> options.reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200)));
  private final Agent agent = agent();
  private final Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
  private final AtomicInteger expiredWaits = new AtomicInteger();

  @AfterEach
  void close() throws SQLException {
    schema.close();
    pool.close();
  }

  /** A custom agent that answers each question at once, or holds a turn until it is aborted. */
  private Agent agent() {
    return Baton.builder()
        .experimental()
        .build()
        .defineCustomAgent(
            "steady",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    String question = Objects.requireNonNull(input.message()).text();
                    if (question.startsWith(HOLD)) {
                      CountDownLatch aborted = new CountDownLatch(1);
                      try (var wake = ctx.cancellation().onCancel(aborted::countDown)) {
                        aborted.await();
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                      ctx.cancellation().throwIfCancelled();
                    }
                    runner.session().addMessage(Message.model(answer(question)));
                    return AgentFinishReason.STOP;
                  });
              return runner.result();
            },
            AgentOptions.builder()
                .sessionStore(store)
                .heartbeat(Duration.ofMillis(100), Duration.ofSeconds(5))
                .waitPollInterval(Duration.ofMillis(50))
                .build());
  }

  private static String answer(String question) {
    return "answer to " + question;
  }

  private record Conversation(String client, String sessionId, List<Turn> acknowledged) {}

  private record Turn(int number, String snapshotId) {}

  private record Detached(String snapshotId, String question) {}

  @Test
  @Timeout(120)
  void everyAcknowledgedTurnSurvivesServerProcessesEndedAtRandomAndEveryErrorIsUnavailable()
      throws Exception {
    long seed = Long.getLong("baton.killSeed", new SecureRandom().nextLong());
    System.out.printf("kill test: seed %d (-Dbaton.killSeed=%d replays)%n", seed, seed);
    store.getSnapshot(context, "warm-up"); // creates the tables before the first kill
    AtomicBoolean clientsDone = new AtomicBoolean();
    List<Conversation> conversations = new ArrayList<>();
    List<Detached> detached = new ArrayList<>();
    List<Detached> aborted = new ArrayList<>();
    int kills;
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<Integer> killer = threads.submit(() -> kill(new Random(seed), clientsDone));
      List<Future<Conversation>> talking = new ArrayList<>();
      List<Future<List<Detached>>> detaching = new ArrayList<>();
      List<Future<List<Detached>>> aborting = new ArrayList<>();
      for (int i = 1; i <= CONVERSATIONS; i++) {
        String client = "c" + i;
        talking.add(threads.submit(() -> converse(client)));
      }
      for (int i = 1; i <= DETACHERS; i++) {
        String client = "d" + i;
        detaching.add(threads.submit(() -> detach(client, DETACHES, "")));
      }
      for (int i = 1; i <= ABORTERS; i++) {
        String client = "a" + i;
        aborting.add(threads.submit(() -> detach(client, ABORTS, HOLD)));
      }
      try {
        for (Future<Conversation> conversation : talking) {
          conversations.add(conversation.get(100, TimeUnit.SECONDS));
        }
        for (Future<List<Detached>> runs : detaching) {
          detached.addAll(runs.get(100, TimeUnit.SECONDS));
        }
        for (Future<List<Detached>> runs : aborting) {
          aborted.addAll(runs.get(100, TimeUnit.SECONDS));
        }
      } finally {
        clientsDone.set(true);
      }
      kills = killer.get(10, TimeUnit.SECONDS);
    }

    PostgresSessionStore fresh = schema.open();
    int turns = 0;
    for (Conversation conversation : conversations) {
      turns += verify(fresh, conversation);
    }
    // A run's row beats until its final write ends, so no wait is told it expired: its row is
    // settled by the time the run's wait returns.
    assertThat(expiredWaits.get()).as("waits that returned an expired run").isZero();
    for (Detached run : detached) {
      SessionSnapshot row = Objects.requireNonNull(fresh.getSnapshot(context, run.snapshotId()));
      assertThat(row.status())
          .as("detached run %s: %s", run.question(), row.error())
          .isEqualTo(SnapshotStatus.COMPLETED);
      assertThat(texts(row)).containsExactly(run.question(), answer(run.question()));
    }
    for (Detached run : aborted) {
      SessionSnapshot row = Objects.requireNonNull(fresh.getSnapshot(context, run.snapshotId()));
      assertThat(row.status())
          .as("aborted run %s: %s", run.question(), row.error())
          .isEqualTo(SnapshotStatus.ABORTED);
      assertThat(row.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
      assertThat(texts(row)).containsExactly(run.question());
    }
    Map<String, Integer> seen = new TreeMap<>();
    errors.forEach((status, count) -> seen.put(status, count.get()));
    System.out.printf(
        "kill test: %d kill rounds; acknowledged %d of %d turns, %d of %d detaches, %d of %d"
            + " detaches then aborted, all read back; errors seen %s; %d waits returned expired%n",
        kills,
        turns,
        CONVERSATIONS * TURNS,
        detached.size(),
        DETACHERS * DETACHES,
        aborted.size(),
        ABORTERS * ABORTS,
        seen,
        expiredWaits.get());
    assertThat(seen.keySet()).isSubsetOf(DOCUMENTED);
    assertThat(kills).as("kill rounds").isPositive();
  }

  /**
   * Ends the pool's server processes once the store has taken a random 1 to 6 connections since the
   * last round, until the rounds are done or the clients are.
   */
  private int kill(Random random, AtomicBoolean clientsDone) throws Exception {
    int rounds = 0;
    while (rounds < KILL_ROUNDS && !clientsDone.get()) {
      if (traffic.checkouts().tryAcquire(1 + random.nextInt(6), 100, TimeUnit.MILLISECONDS)) {
        TestDatabase.terminateBackends(schema.dataSource, applicationName);
        traffic.checkouts().drainPermits();
        rounds++;
      }
    }
    return rounds;
  }

  /** Runs the client's turns, one after the other, in a session of its own, by session ID. */
  private Conversation converse(String client) {
    String sessionId = "conversation-" + client + "-" + UUID.randomUUID();
    List<Turn> acknowledged = new ArrayList<>();
    for (int number = 1; number <= TURNS; number++) {
      String question = client + " q" + number;
      AgentOutput output = run(AgentInput.text(question), AgentInit.ofSession(sessionId));
      if (output != null) {
        // A failed turn keeps its answer, so the caller can show it or ask again.
        assertThat(output.text()).isEqualTo(answer(question));
        if (!output.isFailed()) {
          acknowledged.add(new Turn(number, output.snapshotId()));
        }
      }
    }
    return new Conversation(client, sessionId, acknowledged);
  }

  /**
   * Detaches {@code runs} runs, each in a new session, and waits for each to settle; a run whose
   * input starts with {@link #HOLD} is aborted first.
   *
   * @return the runs whose detach was acknowledged
   */
  private List<Detached> detach(String client, int runs, String prefix) {
    List<Detached> acknowledged = new ArrayList<>();
    for (int number = 1; number <= runs; number++) {
      String question = prefix + client + " q" + number;
      AgentOutput output = run(AgentInput.text(question).withDetach(true), AgentInit.NEW);
      if (output == null || output.isFailed()) {
        continue;
      }
      assertThat(output.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
      String pending = output.snapshotId();
      acknowledged.add(new Detached(pending, question));
      if (!prefix.isEmpty()) {
        call(() -> agent.snapshots().abort(pending));
      }
      SessionSnapshot settled = call(() -> agent.snapshots().waitFor(pending));
      if (settled.status() == SnapshotStatus.EXPIRED) {
        expiredWaits.incrementAndGet();
      }
    }
    return acknowledged;
  }

  /** The output, or null when the run failed to start; either way its error is recorded. */
  private AgentOutput run(AgentInput input, AgentInit init) {
    try {
      AgentOutput output = agent.run(context, input, init, StreamCallback.discard());
      if (output.isFailed()) {
        saw(output.error().status());
      }
      return output;
    } catch (BatonException e) {
      saw(e.status().name());
      return null;
    }
  }

  /** Calls until the call succeeds, recording each error; an outage that lasts fails the test. */
  private <T> T call(Supplier<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (BatonException e) {
        saw(e.status().name());
        if (attempt == CALL_ATTEMPTS) {
          throw e;
        }
        // Paced, so the attempts span a backend's restart rather than a burst of milliseconds.
        Cancellation.never().pause(Duration.ofMillis(Math.min(20L * attempt, 200)));
      }
    }
  }

  private void saw(String status) {
    errors.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
  }

  /**
   * Checks a conversation through a fresh instance: its latest row and every acknowledged turn's
   * row hold whole exchanges, each once and in order, and every exchange acknowledged up to them.
   *
   * @return how many turns were acknowledged
   */
  private int verify(PostgresSessionStore fresh, Conversation conversation) {
    List<Integer> acknowledged = conversation.acknowledged().stream().map(Turn::number).toList();
    SessionSnapshot latest = fresh.getLatestSnapshot(context, conversation.sessionId());
    if (latest != null) {
      assertThat(exchanges(latest, conversation.client())).containsAll(acknowledged);
    } else {
      assertThat(acknowledged).isEmpty();
    }
    for (Turn turn : conversation.acknowledged()) {
      SessionSnapshot row = Objects.requireNonNull(fresh.getSnapshot(context, turn.snapshotId()));
      assertThat(row.status()).isEqualTo(SnapshotStatus.COMPLETED);
      List<Integer> held = exchanges(row, conversation.client());
      assertThat(held).as("turn %d", turn.number()).endsWith(turn.number());
      assertThat(held).containsAll(acknowledged.stream().filter(n -> n <= turn.number()).toList());
    }
    return acknowledged.size();
  }

  /**
   * The numbers of the client's questions that a row holds, each followed by its answer; checks
   * that they are whole, in order and each there once.
   */
  private static List<Integer> exchanges(SessionSnapshot row, String client) {
    List<String> texts = texts(row);
    assertThat(texts.size() % 2).as("whole exchanges in %s", texts).isZero();
    List<Integer> numbers = new ArrayList<>();
    for (int i = 0; i < texts.size(); i += 2) {
      Matcher question = QUESTION.matcher(texts.get(i));
      assertThat(question.matches()).as("a question: %s", texts.get(i)).isTrue();
      assertThat(question.group(1)).isEqualTo(client);
      assertThat(texts.get(i + 1)).isEqualTo(answer(texts.get(i)));
      int number = Integer.parseInt(question.group(2));
      if (!numbers.isEmpty()) {
        assertThat(number).as("in order, each once: %s", texts).isGreaterThan(numbers.getLast());
      }
      numbers.add(number);
    }
    return numbers;
  }

  private static List<String> texts(SessionSnapshot row) {
    return Objects.requireNonNull(row.state()).messages().stream().map(Message::text).toList();
  }
}
