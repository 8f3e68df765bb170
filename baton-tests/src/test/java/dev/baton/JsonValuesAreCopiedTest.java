package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.Session;
import dev.baton.agent.SessionState;
import dev.baton.agent.TurnResult;
import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Model;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.PromptContext;
import dev.baton.ai.Tool;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Flow;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.internal.agent.LiveSession;
import dev.baton.middleware.budget.BudgetExceededException;
import dev.baton.rules.JsonCopyContract;
import dev.baton.rules.JsonHolder;
import dev.baton.rules.ModuleTypes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The baton jar keeps Baton's rule for JSON in values (see {@link JsonCopyContract}) over every
 * public type that {@link PublicApiTest} holds to the reviewed list. No public record of baton has
 * a component that could hide a tree (typed {@code Object}, a type variable, a map of objects), so
 * {@code opaqueComponents()} stays empty; the table below lists the classes that hold JSON.
 */
class JsonValuesAreCopiedTest extends JsonCopyContract {
  private static final Baton BATON = Baton.builder().experimental().build();

  /** Each tool and agent the table defines needs a name of its own in BATON's registry. */
  private static final AtomicInteger NAMES = new AtomicInteger();

  @Override
  protected List<Class<?>> publicTypes() {
    return ModuleTypes.publicTypes(Baton.class);
  }

  @Override
  protected List<JsonHolder<?>> holders() {
    return List.of(
        JsonHolder.of(
            GenerateOptions.class,
            "config",
            tree -> GenerateOptions.builder().config(tree).build(),
            GenerateOptions::config),
        JsonHolder.of(
            BatonException.class,
            "details",
            tree -> new BatonException(Status.INTERNAL, "failed", tree, true, null),
            BatonException::details),
        JsonHolder.of(
            BudgetExceededException.class,
            "details",
            tree -> new BudgetExceededException("over budget", tree, emptyResponse()),
            BudgetExceededException::details),
        JsonHolder.of(
            ActionDescriptor.Builder.class,
            "inputSchema",
            tree -> descriptor().inputSchema(tree).build(),
            ActionDescriptor::inputSchema),
        JsonHolder.of(
            ActionDescriptor.Builder.class,
            "outputSchema",
            tree -> descriptor().outputSchema(tree).build(),
            ActionDescriptor::outputSchema),
        JsonHolder.of(
            ActionDescriptor.Builder.class,
            "streamSchema",
            tree -> descriptor().streamSchema(tree).build(),
            ActionDescriptor::streamSchema),
        JsonHolder.of(
            ActionDescriptor.Builder.class,
            "initSchema",
            tree -> descriptor().initSchema(tree).build(),
            ActionDescriptor::initSchema),
        JsonHolder.of(
            ActionDescriptor.Builder.class,
            "metadata",
            tree -> descriptor().metadata(tree).build(),
            ActionDescriptor::metadata),
        JsonHolder.of(
            InlinePrompt.class,
            "config",
            tree -> InlinePrompt.builder().config(tree).build(),
            prompt ->
                prompt
                    .render(new PromptContext(BATON.context(), Json.object(), List.of()))
                    .build()
                    .config()),
        JsonHolder.of(
            Tool.class,
            "createJson inputSchema",
            tree -> Tool.createJson("sample", "a tool", tree, null, (context, input) -> input),
            tool -> tool.descriptor().inputSchema()),
        JsonHolder.of(
            Tool.class,
            "createJson outputSchema",
            tree -> Tool.createJson("sample", "a tool", null, tree, (context, input) -> input),
            tool -> tool.descriptor().outputSchema()),
        JsonHolder.of(
            Baton.class,
            "defineJsonTool inputSchema",
            tree ->
                BATON.defineJsonTool(
                    "tool-" + NAMES.incrementAndGet(), "a tool", tree, null, (c, input) -> input),
            tool -> tool.descriptor().inputSchema()),
        JsonHolder.of(
            Baton.class,
            "defineJsonTool outputSchema",
            tree ->
                BATON.defineJsonTool(
                    "tool-" + NAMES.incrementAndGet(), "a tool", null, tree, (c, input) -> input),
            tool -> tool.descriptor().outputSchema()),
        JsonHolder.of(
            Session.class,
            "custom",
            tree -> {
              LiveSession session =
                  new LiveSession("session-1", SessionState.empty(), Json.mapper());
              session.updateCustom(current -> tree);
              return session;
            },
            Session::custom),
        JsonHolder.of(
            AgentConnection.class,
            "custom",
            JsonValuesAreCopiedTest::connectionWithCustomState,
            AgentConnection::custom));
  }

  @Override
  protected Map<Class<?>, String> notHolders() {
    String action =
        "an action: runJson reads its input and returns a fresh output, keeping neither";
    return Map.of(
        Action.class, action,
        Flow.class, action,
        Model.class, action,
        ExecutablePrompt.class, action,
        Part.class, "a sealed interface over records (TextPart, DataPart...) that the walk checks");
  }

  @Override
  protected @Nullable Object sample(Class<?> type) {
    if (type == ActionContext.class) {
      return BATON.context();
    }
    if (type == Registry.class) {
      return BATON.registry();
    }
    if (type == Baton.class) {
      return BATON;
    }
    return null;
  }

  /** Keeps the walk honest: it must find the JSON the rule is about. */
  @Test
  void theWalkFindsTheValuesThatHoldJson() {
    assertThat(checked())
        .contains(
            "dev.baton.ai.Message.metadata",
            "dev.baton.ai.GenerateResponse.output",
            "dev.baton.core.ActionDescriptor.metadata",
            "dev.baton.ai.GenerateOptions.config",
            "dev.baton.core.BatonException.details");
  }

  /** A finished connection whose agent set its custom state to {@code custom}. */
  private static AgentConnection connectionWithCustomState(JsonNode custom) {
    Agent agent =
        BATON.defineCustomAgent(
            "custom-" + NAMES.incrementAndGet(),
            runner -> {
              runner.run(
                  (context, input) -> {
                    runner.session().updateCustom(current -> custom);
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            AgentOptions.DEFAULTS);
    AgentConnection connection = agent.connect(AgentInit.NEW);
    connection.sendText("go");
    connection.close();
    connection.receive().forEach(chunk -> {});
    connection.output();
    return connection;
  }

  private static GenerateResponse emptyResponse() {
    return new GenerateResponse(
        ModelResponse.of(Message.model(""), null), List.of(), GenerationUsage.EMPTY, null);
  }

  private static ActionDescriptor.Builder descriptor() {
    return ActionDescriptor.builder(ActionType.FLOW, "sample");
  }
}
