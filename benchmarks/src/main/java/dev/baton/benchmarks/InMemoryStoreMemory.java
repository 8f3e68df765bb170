package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The heap an in-memory store holds over 100,000 turns of a long-running service, bounded and not:
 * sessions of 20 turns, each turn a snapshot holding the whole conversation so far, as the agent
 * runtime saves them. Prints the heap in use after a full collection every 10,000 turns. Not a JMH
 * benchmark, since what it measures is what stays, not how long a turn takes:
 *
 * <pre>{@code
 * java -cp <benchmarks classpath> dev.baton.benchmarks.InMemoryStoreMemory
 * }</pre>
 */
public final class InMemoryStoreMemory {
  private static final int TURNS = 100_000;
  private static final int TURNS_PER_SESSION = 20;
  private static final int CHECKPOINT = 10_000;

  private InMemoryStoreMemory() {}

  public static void main(String[] args) {
    ActionContext context = Baton.builder().build().context();
    System.out.println("turns    bounded (MB)  unbounded (MB)");
    long[] bounded =
        run(
            context,
            InMemorySessionStore.builder().maxSessions(1_000).maxPersistedChainLength(2).build());
    long[] unbounded = run(context, InMemorySessionStore.create());
    for (int i = 0; i < bounded.length; i++) {
      System.out.printf(
          "%7d  %12.1f  %14.1f%n", (i + 1) * CHECKPOINT, mb(bounded[i]), mb(unbounded[i]));
    }
  }

  /** The heap in use after each checkpoint, with the store still reachable. */
  private static long[] run(ActionContext context, InMemorySessionStore store) {
    long baseline = usedAfterGc();
    long[] used = new long[TURNS / CHECKPOINT];
    List<Message> history = new ArrayList<>();
    String parentId = null;
    for (int turn = 0; turn < TURNS; turn++) {
      int n = turn % TURNS_PER_SESSION;
      String sessionId = "session-" + turn / TURNS_PER_SESSION;
      if (n == 0) {
        history = new ArrayList<>();
        parentId = null;
      }
      history.add(Message.user("Question " + n + " of " + sessionId + ", in a few words."));
      history.add(Message.model("Answer " + n + ", a sentence or two long, as a model would say."));
      String id = sessionId + "/" + n;
      Instant now = Instant.now();
      SessionSnapshot row =
          SessionSnapshot.builder(id, now)
              .sessionId(sessionId)
              .parentId(parentId)
              .status(SnapshotStatus.COMPLETED)
              .state(
                  SessionState.empty().withSessionId(sessionId).withMessages(List.copyOf(history)))
              .build();
      store.saveSnapshot(context, id, existing -> row);
      parentId = id;
      if ((turn + 1) % CHECKPOINT == 0) {
        used[turn / CHECKPOINT] = usedAfterGc() - baseline;
      }
    }
    // The store must stay reachable until the last measurement, or the collector would free it.
    Reference.reachabilityFence(store);
    return used;
  }

  private static long usedAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  private static double mb(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
