package dev.baton.samples.basicagents;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionStore;
import dev.baton.ai.Hooks;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Middleware;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolResult;
import dev.baton.core.ActionContext;
import dev.baton.middleware.Retry;
import dev.baton.middleware.agents.Agents;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * Genkit's sample incident commander: two slow investigators, a log analyst and a deploy auditor,
 * that the commander starts in the background; it posts a status update at once, waits for their
 * answers with a timeout, posts an interim update when they are slow, and folds their answers in as
 * they settle. The log shows each task's state as it changes, and every status update. Public for
 * the Spring Boot sample.
 */
public final class IncidentRoom {
  /** The commander's system prompt, which the demo model recognises it by. */
  public static final String COMMANDER_SYSTEM =
      "Run the incident. Start every investigation in the background, post a status update at"
          + " once, then wait for the results.";

  static final String RUNBOOK =
      " Runbook: background every investigation; post the first update at once with post_status;"
          + " wait for the tasks with timeoutSeconds 10; on a timeout read the status board and"
          + " post an interim update, then wait again without a timeout; post the final update;"
          + " continue a failed or expired task once with continue_task.";

  /** The log analyst's system prompt, which the demo model recognises it by. */
  public static final String LOG_ANALYST_SYSTEM =
      "Scan the logs of the service you are given and report the failure signature.";

  /** The deploy auditor's system prompt, which the demo model recognises it by. */
  public static final String DEPLOY_AUDITOR_SYSTEM =
      "List the recent deploys of the service you are given and say which one is suspect.";

  private static final Map<String, List<String>> LOGS =
      Map.of(
          "checkout-api",
          List.of(
              "12:01:07 ERROR checkout-api POST /pay 500 PaymentClientTimeout after 3000 ms",
              "12:01:09 ERROR checkout-api POST /pay 500 PaymentClientTimeout after 3000 ms",
              "12:01:10 WARN  checkout-api connection pool to payments-api exhausted (50/50)"),
          "payments-api",
          List.of("12:00:58 WARN  payments-api slow query on ledger (2.8 s)"));
  private static final Map<String, List<String>> DEPLOYS =
      Map.of(
          "checkout-api",
          List.of(
              "11:52 checkout-api v2.14.0: payment client timeout 10 s -> 3 s, pool 200 -> 50",
              "09:10 checkout-api v2.13.2: copy changes"),
          "payments-api",
          List.of("Yesterday payments-api v7.4.1: ledger index rebuild"));

  private final Consumer<String> log;
  private final Duration slowness;
  private final List<String> board = new CopyOnWriteArrayList<>();

  /**
   * An incident room whose status updates and task states go to {@code log}.
   *
   * @param slowness the latency unit of the slow tools: scanning logs takes 12 of them, listing
   *     deploys 5
   */
  public IncidentRoom(Consumer<String> log, Duration slowness) {
    this.log = log;
    this.slowness = slowness;
  }

  record Service(@JsonPropertyDescription("The service, such as checkout-api.") String service) {}

  record Lines(List<String> lines) {}

  record Update(@JsonPropertyDescription("The status update to post.") String message) {}

  record Posted(String status) {}

  record NoInput() {}

  /** Defines the investigators and the commander, and returns the commander. */
  public Agent define(Baton baton, String model, SessionStore store) {
    Tool<Service, Lines> queryLogs =
        Tool.create(
            "query_logs",
            "Returns the recent error and warning lines of a service's logs. Slow.",
            Service.class,
            Lines.class,
            (ctx, in) -> new Lines(records(ctx.context(), LOGS, in.service(), 12)));
    Tool<Service, Lines> recentDeploys =
        Tool.create(
            "recent_deploys",
            "Lists a service's recent deploys, newest first. Slow.",
            Service.class,
            Lines.class,
            (ctx, in) -> new Lines(records(ctx.context(), DEPLOYS, in.service(), 5)));
    Agent logAnalyst =
        investigator(
            baton,
            "log_analyst",
            model,
            LOG_ANALYST_SYSTEM,
            queryLogs,
            store,
            "Scans service logs and reports the failure signature. Slow: a scan takes tens of"
                + " seconds.");
    Agent deployAuditor =
        investigator(
            baton,
            "deploy_auditor",
            model,
            DEPLOY_AUDITOR_SYSTEM,
            recentDeploys,
            store,
            "Audits a service's recent deploys and names the suspect one. Slow: it takes several"
                + " seconds.");
    Tool<Update, Posted> postStatus =
        Tool.create(
            "post_status",
            "Posts a status update to the incident channel.",
            Update.class,
            Posted.class,
            (ctx, in) -> {
              board.add(in.message());
              log.accept("  [status] " + in.message());
              return new Posted("posted");
            });
    Tool<NoInput, Lines> readBoard =
        Tool.create(
            "read_status_board",
            "Reads the incident channel: the updates posted so far and notes from on-call.",
            NoInput.class,
            Lines.class,
            (ctx, in) -> {
              List<String> lines = new java.util.ArrayList<>(board);
              lines.add("on-call: customers report failed payments at checkout");
              return new Lines(lines);
            });
    return baton.defineAgent(
        "commander",
        InlinePrompt.builder()
            .model(model)
            .system(COMMANDER_SYSTEM + RUNBOOK)
            .tools(postStatus, readBoard)
            // Launch, post, wait, and post again are all tool rounds.
            .maxTurns(15)
            .use(
                taskLog(),
                Agents.builder()
                    .agents(logAnalyst.ref(), deployAuditor.ref())
                    .async(true)
                    .maxDelegations(6)
                    .build(),
                new Retry())
            .build(),
        AgentOptions.builder().sessionStore(store).build());
  }

  private static Agent investigator(
      Baton baton,
      String name,
      String model,
      String system,
      Tool<?, ?> tool,
      SessionStore store,
      String description) {
    return baton.defineAgent(
        name,
        InlinePrompt.builder()
            .model(model)
            .system(system)
            .tools(tool)
            .use(Retry.builder().maxRetries(5).build())
            .build(),
        AgentOptions.builder().sessionStore(store).description(description).build());
  }

  /**
   * A slow lookup that an abort stops: it waits on the call's cancellation, not a sleep. Only
   * checkout-api and payments-api have records.
   */
  private List<String> records(
      ActionContext context, Map<String, List<String>> records, String service, int units) {
    CountDownLatch cancelled = new CountDownLatch(1);
    try (var stop = context.cancellation().onCancel(cancelled::countDown)) {
      cancelled.await(slowness.toMillis() * units, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    context.cancellation().throwIfCancelled();
    // Any other service has nothing to report: no lines, and no hint to look at another service.
    return records.getOrDefault(service, List.of());
  }

  /**
   * Prints each background task's state as the commander's tools report it: launched, then whatever
   * a check, wait or abort says, once per change.
   */
  private Middleware taskLog() {
    Map<String, String> states = new ConcurrentHashMap<>();
    return Middleware.of(
        "task-log",
        context ->
            Hooks.builder()
                .wrapTool(
                    (ctx, params, next) -> {
                      ToolResult result = next.apply(ctx, params);
                      if (result instanceof ToolResult.Output output) {
                        JsonNode out = output.output();
                        show(states, out);
                        out.path("tasks").forEach(report -> show(states, report));
                      }
                      return result;
                    })
                .build());
  }

  private void show(Map<String, String> states, JsonNode report) {
    String task = report.path("taskId").asString("");
    String status = report.path("status").asString("");
    // A model may name a task that does not exist; its report echoes the ID it was given.
    int colon = task.indexOf(':');
    if (colon <= 0 || status.isEmpty() || status.equals(states.put(task, status))) {
      return;
    }
    String agent = task.substring(0, colon);
    String id = task.substring(colon + 1);
    log.accept(
        "  [task] " + agent + " " + id.substring(0, Math.min(8, id.length())) + " " + status);
  }
}
