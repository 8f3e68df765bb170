package dev.baton.middleware.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.ToolApproval;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;

/**
 * One instance of the team the forwarded-interrupt tests use: an orchestrator delegating to {@code
 * coder}, whose {@code write_file} is held by ToolApproval. Both sub-agent and orchestrator keep
 * their sessions in the stores given, so that another instance on the same stores carries on. The
 * static helpers build the calls, answers and checks those tests share. Variants of the team (a
 * Budget hold, background delegation, a traced instance recording usage trees) pass their own coder
 * hold, delegation options, Baton and orchestrator options.
 */
class SubAgentTeam implements AutoCloseable {
  static final String PATH = "src/Main.java";

  final Baton baton;
  final ProgrammableModel orchestratorModel;
  final ProgrammableModel coderModel;
  final List<JsonNode> writes = new CopyOnWriteArrayList<>();

  /** Runs inside {@code write_file} after the write is recorded: a test holds a write here. */
  volatile Runnable onWrite = () -> {};

  final Tool<JsonNode, JsonNode> askUser;
  final Agent coder;
  final Agent orchestrator;

  /**
   * @param forward whether the orchestrator forwards the coder's interrupts
   */
  SubAgentTeam(SessionStore coderStore, SessionStore orchestratorStore, boolean forward) {
    this(
        coderStore,
        orchestratorStore,
        ToolApproval.allowing("ask_user"),
        delegation -> delegation.forwardInterrupts(forward));
  }

  /**
   * @param coderHold the coder's middleware that holds its {@code write_file}
   * @param delegation sets the orchestrator's delegation options, on a builder that has the coder
   * @param orchestratorMiddleware more middleware for the orchestrator, after the delegation
   */
  SubAgentTeam(
      SessionStore coderStore,
      SessionStore orchestratorStore,
      Middleware coderHold,
      UnaryOperator<Agents.Builder> delegation,
      Middleware... orchestratorMiddleware) {
    this(
        Baton.builder().experimental().build(),
        coderStore,
        AgentOptions.builder().sessionStore(orchestratorStore).build(),
        coderHold,
        delegation,
        orchestratorMiddleware);
  }

  /**
   * @param baton the instance the team is defined on, which the team closes
   * @param orchestratorOptions the orchestrator's options, with the store it keeps its sessions in
   */
  SubAgentTeam(
      Baton baton,
      SessionStore coderStore,
      AgentOptions orchestratorOptions,
      Middleware coderHold,
      UnaryOperator<Agents.Builder> delegation,
      Middleware... orchestratorMiddleware) {
    this.baton = baton;
    orchestratorModel = ProgrammableModel.define(baton.registry(), "orch");
    coderModel = ProgrammableModel.define(baton.registry(), "coder-model");
    var writeFile =
        baton.defineJsonTool(
            "write_file",
            "Writes a file.",
            null,
            null,
            (ctx, in) -> {
              writes.add(in);
              onWrite.run();
              return Json.nodes().stringNode("written");
            });
    askUser =
        baton.defineJsonTool(
            "ask_user",
            "Asks the user.",
            null,
            null,
            (ctx, in) -> {
              throw ctx.interrupt(Map.of("question", in.path("question").asString()));
            });
    coder =
        baton.defineAgent(
            "coder",
            InlinePrompt.builder()
                .model("coder-model")
                .system("You write code.")
                .tools(writeFile, askUser)
                .use(coderHold)
                .build(),
            AgentOptions.builder().sessionStore(coderStore).description("Writes code.").build());
    var prompt =
        InlinePrompt.builder()
            .model("orch")
            .system("Delegate.")
            .use(delegation.apply(Agents.builder().agents(coder.ref())).build());
    for (Middleware middleware : orchestratorMiddleware) {
      prompt.use(middleware);
    }
    orchestrator = baton.defineAgent("orchestrator", prompt.build(), orchestratorOptions);
  }

  /**
   * The models' next replies: the orchestrator's delegates {@code d1} to the coder, whose asks to
   * write {@link #PATH} ({@code w1}), a call the coder's hold stops.
   */
  void delegatesOneWrite() {
    orchestratorModel.respond(calls(delegate("d1", "Write the main class")));
    coderModel.respond(calls(write("w1", PATH)));
  }

  /** As {@link #delegatesOneWrite}, with the coder asking to write two files at once. */
  void delegatesTwoWrites() {
    orchestratorModel.respond(calls(delegate("d1", "Write two files")));
    coderModel.respond(calls(write("w1", PATH), write("w2", "README.md")));
  }

  /** The orchestrator delegates; the coder asks to write the file; the turn ends held. */
  AgentOutput heldWrite(ActionContext context) {
    delegatesOneWrite();
    return orchestrator.run(
        context, AgentInput.text("Build it"), AgentInit.NEW, StreamCallback.discard());
  }

  AgentOutput resume(ActionContext context, String snapshotId, Resume resume) {
    return resume(orchestrator, context, AgentInit.ofSnapshot(snapshotId), resume);
  }

  /**
   * An orchestrator that keeps no sessions (the client does), forwarding its sub-agents'
   * interrupts, with the delegation options given; its model is the team's orchestrator model.
   */
  Agent clientManagedLead(UnaryOperator<Agents.Builder> agents) {
    return baton.defineAgent(
        "lead",
        InlinePrompt.builder()
            .model("orch")
            .use(agents.apply(Agents.builder().forwardInterrupts(true)).build())
            .build(),
        AgentOptions.DEFAULTS);
  }

  /** The outputs of the tool responses the orchestrator's model was sent last, by ref. */
  JsonNode delegationOutput(String ref) {
    return lastToolResponses(orchestratorModel).stream()
        .filter(p -> ref.equals(p.toolResponse().ref()))
        .findFirst()
        .orElseThrow()
        .toolResponse()
        .output();
  }

  @Override
  public void close() {
    baton.close();
  }

  /** A resume turn of any agent, from the session source given. */
  static AgentOutput resume(Agent agent, ActionContext context, AgentInit init, Resume resume) {
    return agent.run(context, AgentInput.resume(resume), init, StreamCallback.discard());
  }

  /** The tool responses in the last message the model was sent. */
  static List<ToolResponsePart> lastToolResponses(ProgrammableModel model) {
    return model.lastRequest().messages().getLast().toolResponses();
  }

  static ModelResponse calls(ToolRequestPart... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  static ModelResponse calls(GenerationUsage usage, ToolRequestPart... calls) {
    return calls(calls).withUsage(usage);
  }

  static GenerationUsage tokens(int total) {
    return GenerationUsage.builder().totalTokens(total).build();
  }

  static ToolRequestPart delegate(String ref, String task) {
    return Part.toolRequest("delegate_to_coder", ref, Json.object().put("task", task));
  }

  static ToolRequestPart write(String ref, String path) {
    return Part.toolRequest("write_file", ref, Json.object().put("path", path));
  }

  /** The one interrupted call of an interrupted turn. */
  static ToolRequestPart held(AgentOutput output) {
    List<ToolRequestPart> interrupts = interrupts(output);
    assertThat(interrupts).hasSize(1);
    return interrupts.get(0);
  }

  /** The interrupted calls of an interrupted turn, in order. */
  static List<ToolRequestPart> interrupts(AgentOutput output) {
    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    return output.message().toolRequests().stream()
        .filter(p -> p.metadata() != null && p.metadata().has("interrupt"))
        .toList();
  }

  static Resume approve(ToolRequestPart held) {
    return Resume.restart(
        new ToolRequestPart(
            held.toolRequest(),
            Json.object().set("resumed", Json.object().put("toolApproved", true))));
  }

  static Resume answer(ToolRequestPart held, Object output) {
    return Resume.respond(
        Part.toolResponse(
            held.toolRequest().name(), held.toolRequest().ref(), Json.toTree(output)));
  }

  /** The status a turn failed with, whether the agent threw it or reported it. */
  static Status failure(Supplier<AgentOutput> turn) {
    try {
      AgentOutput output = turn.get();
      assertThat(output.isFailed()).as("the turn failed").isTrue();
      return output.error().statusCode();
    } catch (BatonException e) {
      return e.status();
    }
  }

  /** The coder's snapshot ID a wrapped interrupt routes to. */
  static String taskSnapshot(ToolRequestPart held) {
    return held.metadata()
        .path("interrupt")
        .path(Agents.SUB_AGENT)
        .path("taskId")
        .asString()
        .substring("coder:".length());
  }

  /** The coder's held turn is still its session's latest, and nothing ran. */
  static void assertUntouched(SubAgentTeam team, ToolRequestPart held) {
    assertStillLatest(team.coder.snapshots(), held);
    assertThat(team.writes).isEmpty();
    assertThat(team.coderModel.calls()).isEqualTo(1);
  }

  /** The held turn a wrapped interrupt routes to is still its session's latest snapshot. */
  static void assertStillLatest(AgentSnapshots coderSnapshots, ToolRequestPart held) {
    String coderSnapshot = taskSnapshot(held);
    var row = coderSnapshots.get(coderSnapshot);
    assertThat(coderSnapshots.latest(row.sessionId()).snapshotId()).isEqualTo(coderSnapshot);
  }
}
