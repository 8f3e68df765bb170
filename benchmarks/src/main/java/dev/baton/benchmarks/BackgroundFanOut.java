package dev.baton.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import com.sun.management.OperatingSystemMXBean;
import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.middleware.agents.Agents;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One orchestrator turn that launches {@code tasks} background delegations, each to a sub-agent
 * whose model takes {@code modelMillis} to answer, and collects them all with one wait. Prints the
 * wall time of the turn, the process CPU time it took (on a loaded machine the steadier figure of
 * the two), the time until every launch had answered, and the heap as one JSON line, and exits with
 * 1 unless every task completed. Heap: {@code maxHeapInUseMB} is the most in use at one time
 * (before each collection); {@code peakHeapMB}, the sum of the heap pools' own peaks, is kept to
 * compare with earlier figures, but it overstates, since the pools peak at different times.
 *
 * <p>With a third argument {@code live}, it also measures the live heap per pending task: once
 * every launch has answered and every task's model call has started (a launch answers before its
 * worker runs, and a task whose worker has not run yet holds no parked thread), full garbage
 * collections, which lengthen the turn, so the wall and CPU times of that run are not comparable.
 * Give the model long enough that no task ends before the measurement.
 *
 * <pre>{@code
 * ./benchmarks/run-scenario BackgroundFanOut 10000 2000
 * ./benchmarks/run-scenario BackgroundFanOut 10000 60000 live
 * }</pre>
 */
public final class BackgroundFanOut {
  private BackgroundFanOut() {}

  public static void main(String[] args) throws Exception {
    int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    long modelMillis = args.length > 1 ? Long.parseLong(args[1]) : 2_000;
    boolean measureLive = args.length > 2 && args[2].equals("live");
    // Counts the model calls that have started waiting: the live measurement waits for all of them.
    CountDownLatch waiting = new CountDownLatch(tasks);
    Baton baton = Baton.builder().experimental().build();
    baton.defineModel(
        "slow",
        ModelInfo.full("slow"),
        (ctx, request, chunks) -> {
          CountDownLatch stopped = new CountDownLatch(1);
          try (var stop = ctx.cancellation().onCancel(stopped::countDown)) {
            waiting.countDown();
            stopped.await(modelMillis, TimeUnit.MILLISECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return ModelResponse.of(Message.model("done"), FinishReason.STOP);
        });
    Agent worker =
        baton.defineAgent(
            "worker",
            InlinePrompt.builder().model("slow").build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    AtomicLong livePerTask = new AtomicLong();
    AtomicLong launched = new AtomicLong();
    baton.defineModel(
        "orchestrator-model",
        ModelInfo.full("orchestrator"),
        (ctx, request, chunks) -> {
          Message last = request.messages().get(request.messages().size() - 1);
          if (last.role() == Role.USER) {
            List<Part> launches = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
              launches.add(
                  Part.toolRequest(
                      "delegate_to_worker",
                      "l" + i,
                      Json.object().put("task", "task " + i).put("background", true)));
            }
            return ModelResponse.of(new Message(Role.MODEL, launches), FinishReason.STOP);
          }
          if (last.toolResponses().get(0).toolResponse().name().equals("delegate_to_worker")) {
            launched.set(System.nanoTime());
            if (measureLive) {
              try {
                waiting.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
              }
              livePerTask.set((liveHeap() - BASELINE.get()) / tasks);
            }
            ObjectNode wait = Json.object().put("timeoutSeconds", 0);
            ArrayNode ids = wait.putArray("taskIds");
            for (ToolResponsePart part : last.toolResponses()) {
              JsonNode output = part.toolResponse().output();
              ids.add(output == null ? "" : output.path("taskId").asString());
            }
            return ModelResponse.of(
                new Message(
                    Role.MODEL, List.of(Part.toolRequest("wait_for_background_tasks", "w", wait))),
                FinishReason.STOP);
          }
          long completed =
              last.toolResponses()
                  .get(0)
                  .toolResponse()
                  .output()
                  .path("tasks")
                  .valueStream()
                  .filter(r -> r.path("status").asString().equals("completed"))
                  .count();
          return ModelResponse.of(Message.model("completed " + completed), FinishReason.STOP);
        });
    Agent orchestrator =
        baton.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("orchestrator-model")
                .use(Agents.builder().agents(worker.ref()).async(true).build())
                .build());

    if (measureLive) {
      BASELINE.set(liveHeap());
    }
    resetPeaks();
    watchHeapInUse();
    OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    long cpuStart = os.getProcessCpuTime();
    long start = System.nanoTime();
    AgentOutput output = orchestrator.runText("go");
    Duration wall = Duration.ofNanos(System.nanoTime() - start);
    Duration cpu = Duration.ofNanos(os.getProcessCpuTime() - cpuStart);
    System.out.printf(
        Locale.ROOT,
        "{\"scenario\":\"BackgroundFanOut\",\"tasks\":%d,\"modelMillis\":%d,\"wallMillis\":%d,"
            + "\"cpuMillis\":%d,\"launchMillis\":%d,\"peakHeapMB\":%.1f,\"maxHeapInUseMB\":%.1f,\"livePerPendingTaskKB\":%s,\"answer\":\"%s\"}%n",
        tasks,
        modelMillis,
        wall.toMillis(),
        cpu.toMillis(),
        Duration.ofNanos(launched.get() - start).toMillis(),
        peakHeap() / 1e6,
        Math.max(MAX_IN_USE.get(), heapInUse()) / 1e6,
        measureLive ? String.format(Locale.ROOT, "%.2f", livePerTask.get() / 1e3) : "null",
        output.isFailed() ? "failed: " + output.error() : output.text());
    // Figures from a run in which some task did not complete measure something else.
    System.exit(output.isFailed() || !output.text().equals("completed " + tasks) ? 1 : 0);
  }

  // Live bytes after a full GC before the turn: what the pending tasks' figure is measured against.
  private static final AtomicLong BASELINE = new AtomicLong();

  private static long liveHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return heapInUse();
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
  }

  // The most heap in use at one time: the heap pools' sum just before each collection.
  private static final AtomicLong MAX_IN_USE = new AtomicLong();

  /**
   * Records the heap in use before every collection from now on. The pools' own peaks ({@link
   * #peakHeap}) are reached at different times (eden's before a collection, the old generation's
   * after it), so their sum can exceed what was ever in use, even the maximum heap size.
   */
  private static void watchHeapInUse() {
    Set<String> heapPools = new HashSet<>();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPools.add(pool.getName());
      }
    }
    MAX_IN_USE.set(heapInUse());
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) collector)
          .addNotificationListener(
              (notification, handback) -> {
                if (!notification
                    .getType()
                    .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                  return;
                }
                GcInfo info =
                    GarbageCollectionNotificationInfo.from(
                            (CompositeData) notification.getUserData())
                        .getGcInfo();
                long inUse = 0;
                for (Map.Entry<String, MemoryUsage> pool :
                    info.getMemoryUsageBeforeGc().entrySet()) {
                  if (heapPools.contains(pool.getKey())) {
                    inUse += pool.getValue().getUsed();
                  }
                }
                MAX_IN_USE.accumulateAndGet(inUse, Math::max);
              },
              null,
              null);
    }
  }

  private static long heapInUse() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static long peakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
