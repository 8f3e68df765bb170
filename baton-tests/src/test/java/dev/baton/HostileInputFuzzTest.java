package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.ToolCallFeedback;
import dev.baton.testing.ProgrammableModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Hostile input through the Java API, from a seed ({@code -Dbaton.fuzz.seed} picks another; the run
 * prints the one it used): mutated agent inputs, inits, resumes, snapshot rows (decoded, and
 * written as row files the file store then reads) and tool arguments a model sends; and IDs and
 * tenant prefixes from a hostile alphabet against the file store, the in-memory store and the
 * agents over them. Some of the ID cases run in a JVM whose file names are ASCII. Over 10,000 cases
 * in all, it checks that:
 *
 * <ul>
 *   <li>every failure is a {@link BatonException}, or a failed output, with a status Genkit's
 *       protocol gives for that kind of input;
 *   <li>nothing is written outside the store's folder;
 *   <li>no message, and no value, names a path;
 *   <li>a normal turn still works afterwards.
 * </ul>
 *
 * It prints the count of cases by kind and by outcome.
 */
@Timeout(180)
class HostileInputFuzzTest {
  private static final int CASES = 10_000;
  private static final int ASCII_CASES = 1_500;

  /** Cases share a tenant folder of the file store this many at a time, to keep scans short. */
  private static final int CASES_PER_FOLDER = 200;

  private static final Set<Status> INPUT_OUTCOMES =
      Set.of(Status.OK, Status.INVALID_ARGUMENT, Status.FAILED_PRECONDITION);
  private static final Set<Status> INIT_OUTCOMES =
      Set.of(Status.OK, Status.INVALID_ARGUMENT, Status.FAILED_PRECONDITION, Status.NOT_FOUND);
  private static final Set<Status> RESUME_OUTCOMES =
      Set.of(Status.OK, Status.INVALID_ARGUMENT, Status.FAILED_PRECONDITION, Status.NOT_FOUND);
  private static final Set<Status> DECODED = Set.of(Status.OK, Status.INVALID_ARGUMENT);
  private static final Set<Status> ROW_READS = Set.of(Status.OK, Status.DATA_LOSS);
  private static final Set<Status> ROW_RESUMES =
      Set.of(Status.OK, Status.DATA_LOSS, Status.FAILED_PRECONDITION, Status.NOT_FOUND);
  private static final Set<Status> TOOL_CALLS =
      Set.of(Status.OK, Status.INVALID_ARGUMENT, Status.NOT_FOUND);
  private static final Set<Status> ID_OUTCOMES = Set.of(Status.OK, Status.INVALID_ARGUMENT);
  // Hostile IDs repeat, so a lookup may find a row a store case saved under one.
  private static final Set<Status> LOOKUP_OUTCOMES =
      Set.of(Status.OK, Status.NOT_FOUND, Status.INVALID_ARGUMENT);

  private static final JsonNode FORECAST_SCHEMA =
      Json.parse(
          """
          {"type": "object",
           "properties": {"city": {"type": "string", "minLength": 1},
                          "days": {"type": "integer", "minimum": 1, "maximum": 14}},
           "required": ["city"]}
          """);

  @TempDir Path parent;

  private final Baton baton = Baton.builder().experimental().build();
  private final ActionContext root = baton.context();
  private final ProgrammableModel agentModel = ProgrammableModel.define(baton.registry(), "pm");
  private final ProgrammableModel toolModel = ProgrammableModel.define(baton.registry(), "tm");
  private final Tool<JsonNode, JsonNode> forecast =
      Tool.createJson(
          "forecast",
          "The weather in a city",
          FORECAST_SCHEMA,
          null,
          (ctx, in) -> Json.object().put("celsius", 3));
  private final Tool<JsonNode, JsonNode> approve =
      Tool.createJson(
          "approve",
          "Asks a person first",
          null,
          null,
          (ctx, in) -> {
            if (!ctx.isResumed()) {
              throw ctx.interrupt(Json.object().put("reason", "confirm"));
            }
            return Json.object().put("approved", true);
          });

  private Path storeDir;
  private Random random;
  private HostileIds ids;
  private JsonMutator mutator;
  private FuzzTally tally;
  private FileSessionStore files;
  private InMemorySessionStore memory;
  private Agent onFiles;
  private Agent inMemory;
  private Agent clientManaged;
  private final List<Runnable> detachedRuns = new ArrayList<>();

  // Valid material, made in setUp from real turns.
  private final List<JsonNode> inputs = new ArrayList<>();
  private final List<JsonNode> serverInits = new ArrayList<>();
  private JsonNode stateInit;
  private final List<JsonNode> resumes = new ArrayList<>();
  private String pausedOnFiles;
  private String pausedInMemory;
  private JsonNode pausedState;
  private JsonNode row;

  @Test
  void hostileInputFailsWithItsStatusWritesOnlyInTheStoreAndNamesNoPath() throws Exception {
    long seed = Long.getLong("baton.fuzz.seed", 20260612L);
    System.out.println("hostile input fuzz: seed " + seed + " (-Dbaton.fuzz.seed=" + seed + ")");
    // Nested, so that a write escaping the store by a few levels still lands inside the parent. The
    // ASCII JVM's store is a sibling, out of reach of this store's sweeps of leftover files.
    storeDir = parent.resolve("a").resolve("b").resolve("store");
    random = new Random(seed);
    ids = new HostileIds(random);
    mutator = new JsonMutator(random, ids);
    tally = new FuzzTally(List.of(parent.toString(), parent.toRealPath().toString()));
    setUp();

    long start = System.nanoTime();
    long startCpu = cpuMillis();
    // The ASCII JVM runs its cases meanwhile, and they count toward the total; when no such JVM
    // can be started, this one runs them all.
    AsciiNamesJvm.Running asciiJvm =
        AsciiNamesJvm.start(
            HostileIds.class,
            storeDir.resolveSibling("ascii").toString(),
            String.valueOf(seed),
            String.valueOf(ASCII_CASES));
    int step = runCases(0, CASES - ASCII_CASES);
    AsciiNamesJvm.Result ascii = asciiJvm.await();
    if (ascii.ran()) {
      HostileIds.readInto(ascii.output(), tally);
    }
    runCases(step, CASES);
    detachedRuns.forEach(Runnable::run);
    long millis = (System.nanoTime() - start) / 1_000_000;
    long cpuMillis = cpuMillis() - startCpu;

    // A normal turn still works, on both stores, and a session continues.
    AgentOutput hello = onFiles.runText("hello");
    AgentOutput again = onFiles.runText("again", AgentInit.ofSession(hello.sessionId()));
    AgentOutput inMemoryHello = inMemory.runText("hello");

    System.out.printf(
        "hostile input fuzz: %d cases in %d ms (%d ms of this JVM's CPU time)"
            + " (%s in a JVM with ASCII file names)%n"
            + "  by kind: %s%n  milliseconds by kind: %s%n  by outcome: %s%n  problems: %d%n",
        tally.cases(),
        millis,
        cpuMillis,
        ascii.ran() ? ASCII_CASES + " store cases" : "none: " + ascii.output().strip(),
        tally.kinds(),
        tally.millis(),
        tally.statuses(),
        tally.problems().size());
    tally.problems().forEach(p -> System.out.println("  " + p));

    assertThat(tally.problems()).as("rules broken").isEmpty();
    assertThat(tally.cases()).isGreaterThanOrEqualTo(CASES);
    assertThat(hello.text()).isEqualTo("ok");
    assertThat(again.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(onFiles.snapshots().get(again.snapshotId()).state().messages()).hasSize(4);
    assertThat(inMemoryHello.text()).isEqualTo("ok");
    assertThat(namesIn(parent)).as("what the parent folder holds").containsExactly("a");
    assertThat(namesIn(parent.resolve("a"))).containsExactly("b");
    assertThat(namesIn(storeDir.getParent()))
        .containsExactlyElementsOf(ascii.ran() ? List.of("ascii", "store") : List.of("store"));
    try (Stream<Path> all = Files.walk(parent)) {
      assertThat(all.filter(Files::isSymbolicLink)).as("links the stores made").isEmpty();
    }
  }

  /**
   * Runs cases from step {@code first} until the tally counts {@code total}; returns the next step.
   */
  private int runCases(int first, int total) throws IOException {
    int step = first;
    for (; tally.cases() < total; step++) {
      int folder = step / CASES_PER_FOLDER;
      int kind = random.nextInt(100);
      if (kind < 20) {
        agentInput(folder);
      } else if (kind < 32) {
        agentInit(folder);
      } else if (kind < 44) {
        resume();
      } else if (kind < 56) {
        snapshotRow(folder, step);
      } else if (kind < 68) {
        toolArguments();
      } else {
        storeIds(folder, step);
      }
    }
    return step;
  }

  // ---- set-up ---------------------------------------------------------------------------------

  private void setUp() throws IOException {
    agentModel.fallback(request -> reply("ok"));
    toolModel.fallback(request -> reply("done"));
    files = HostileIds.fileStore(storeDir);
    memory = InMemorySessionStore.create();
    InlinePrompt prompt =
        InlinePrompt.builder().model("pm").system("Be brief.").tools(approve).build();
    onFiles =
        baton.defineAgent("onFiles", prompt, AgentOptions.builder().sessionStore(files).build());
    inMemory =
        baton.defineAgent("inMemory", prompt, AgentOptions.builder().sessionStore(memory).build());
    clientManaged = baton.defineAgent("clientManaged", prompt);

    inputs.add(
        Json.parse("{\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"hi\"}]}}"));
    inputs.add(
        Json.parse(
            """
            {"message": {"role": "user", "metadata": {"k": 1},
                         "content": [{"text": "look"},
                                     {"media": {"url": "data:image/png;base64,AAAA",
                                                "contentType": "image/png"}},
                                     {"data": {"rows": [1, 2]}}]},
             "detach": false}
            """));
    inputs.add(
        Json.parse("{\"message\": {\"content\": [{\"text\": \"no role\"}]}, \"retry\": false}"));
    inputs.add(
        Json.parse(
            "{\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"x\"}]},"
                + " \"resume\": {\"respond\": []}}"));

    AgentOutput first = onFiles.run(folder(0), AgentInput.text("hi"), AgentInit.NEW, discard());
    serverInits.add(Json.object());
    serverInits.add(Json.object().put("sessionId", first.sessionId()));
    serverInits.add(Json.object().put("snapshotId", first.snapshotId()));
    serverInits.add(Json.object().put("snapshotId", first.snapshotId()).put("continue", true));
    serverInits.add(
        Json.object().put("sessionId", first.sessionId()).put("snapshotId", first.snapshotId()));
    AgentOutput stateful = clientManaged.runText("hi");
    stateInit = Json.object().set("state", Json.toTree(stateful.state()));

    // A paused turn in each store and a client's state: the model asks for an approval.
    ActionContext resumeFolder = root.with(HostileIds.PREFIX, "resume");
    pausedOnFiles = paused(onFiles, resumeFolder).snapshotId();
    pausedInMemory = paused(inMemory, root).snapshotId();
    pausedState = Json.toTree(paused(clientManaged, root).state());
    resumes.add(
        Json.parse(
            "{\"respond\": [{\"toolResponse\": {\"name\": \"approve\", \"ref\": \"a1\","
                + " \"output\": {\"approved\": true}}}]}"));
    resumes.add(
        Json.parse(
            "{\"restart\": [{\"toolRequest\": {\"name\": \"approve\", \"ref\": \"a1\","
                + " \"input\": {\"amount\": 5}}, \"metadata\": {\"resumed\": {\"by\": \"me\"}}}]}"));
    resumes.add(
        Json.parse(
            "{\"respond\": [{\"toolResponse\": {\"name\": \"approve\", \"ref\": \"a1\","
                + " \"output\": 1}}], \"metadata\": {\"note\": \"x\"}}"));

    // A row as the file store writes it.
    Path rowFile = storeDir.resolve(folderName(0)).resolve(first.snapshotId() + ".json");
    row = Json.parse(Files.readString(rowFile, StandardCharsets.UTF_8));
  }

  private AgentOutput paused(Agent agent, ActionContext context) {
    agentModel.respond(
        ModelResponse.of(
            new Message(
                Role.MODEL,
                List.of(Part.toolRequest("approve", "a1", Json.object().put("amount", 5)))),
            FinishReason.STOP));
    AgentOutput output = agent.run(context, AgentInput.text("pay"), AgentInit.NEW, discard());
    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    return output;
  }

  // ---- the kinds of case ----------------------------------------------------------------------

  /** A mutated input, to a fresh session of any agent. */
  private void agentInput(int folder) {
    JsonNode input = wire("agent input", pick(inputs));
    if (input == null) {
      return;
    }
    // Most go to the in-memory store: the input is read before any store sees it, and file
    // writes are slow.
    switch (random.nextInt(5)) {
      case 0 -> runAgent("agent input", INPUT_OUTCOMES, onFiles, folder(folder), input, null);
      case 1 -> runAgent("agent input", INPUT_OUTCOMES, clientManaged, root, input, null);
      default -> runAgent("agent input", INPUT_OUTCOMES, inMemory, root, input, null);
    }
  }

  /** A mutated init, with a plain input. */
  private void agentInit(int folder) {
    JsonNode input = inputs.get(0);
    if (random.nextInt(4) == 0) {
      JsonNode init = wire("agent init", stateInit);
      if (init != null) {
        runAgent("agent init", INIT_OUTCOMES, clientManaged, root, input, init);
      }
      return;
    }
    JsonNode init = wire("agent init", pick(serverInits));
    if (init == null) {
      return;
    }
    if (random.nextInt(4) == 0) {
      // The inits name the first session, which lives in the first folder.
      runAgent("agent init", INIT_OUTCOMES, onFiles, folder(0), input, init);
    } else {
      runAgent("agent init", INIT_OUTCOMES, inMemory, root, input, init);
    }
  }

  /** A mutated resume of a paused turn; sometimes the mutation reaches the input around it. */
  private void resume() {
    JsonNode resume = mutator.mutate(pick(resumes));
    ObjectNode input = Json.object();
    input.set("resume", resume);
    JsonNode sent = random.nextInt(5) == 0 ? mutator.mutate(input) : input;
    switch (random.nextInt(4)) {
      case 0 ->
          runAgent(
              "resume",
              RESUME_OUTCOMES,
              onFiles,
              root.with(HostileIds.PREFIX, "resume"),
              sent,
              Json.object().put("snapshotId", pausedOnFiles));
      case 1, 2 ->
          runAgent(
              "resume",
              RESUME_OUTCOMES,
              inMemory,
              root,
              sent,
              Json.object().put("snapshotId", pausedInMemory));
      default ->
          runAgent(
              "resume",
              RESUME_OUTCOMES,
              clientManaged,
              root,
              sent,
              Json.object().set("state", pausedState));
    }
  }

  /**
   * A mutated row: decoded, and half the time written as a row file of a folder of its own, which
   * the store or the agent then reads or resumes.
   */
  private void snapshotRow(int folder, int index) throws IOException {
    JsonNode mutated = mutator.mutate(row);
    tally.run("snapshot", DECODED, mutated, () -> Json.convert(mutated, SessionSnapshot.class));
    if (random.nextBoolean()) {
      return;
    }
    String id = "fz-row-" + index % 16;
    ActionContext context = root.with(HostileIds.PREFIX, "rows-" + folder);
    Path dir = storeDir.resolve("rows-" + folder);
    Files.createDirectories(dir);
    String text;
    if (random.nextInt(5) == 0) {
      text = mutator.mutateText(row);
    } else {
      JsonNode written = mutated.deepCopy();
      if (written instanceof ObjectNode object && random.nextBoolean()) {
        // Most rows name their own file, so the store reads past the name check.
        object.put("snapshotId", id);
      }
      text = writable(written);
    }
    // Encoded as a careless writer would: a lone surrogate becomes "?".
    Files.write(dir.resolve(id + ".json"), text.getBytes(StandardCharsets.UTF_8));
    Map<String, String> what = Map.of("row file", FuzzTally.abbreviate(text));
    switch (random.nextInt(4)) {
      case 0 -> tally.run("snapshot file", ROW_READS, what, () -> files.getSnapshot(context, id));
      case 1 ->
          tally.run(
              "snapshot file",
              ROW_READS,
              what,
              () -> files.getLatestSnapshot(context, row.path("sessionId").asString()));
      case 2 ->
          tally.run("snapshot file", ROW_RESUMES, what, () -> onFiles.snapshots(context).get(id));
      default ->
          runAgent(
              "snapshot file",
              ROW_RESUMES,
              onFiles,
              context,
              inputs.get(0),
              Json.object().put("snapshotId", id));
    }
  }

  /** A model's tool call with mutated arguments, or a mutated message around it. */
  private void toolArguments() {
    JsonNode arguments = mutator.mutate(Json.object().put("city", "Oslo").put("days", 2));
    ObjectNode message = Json.object().put("role", "model");
    message
        .putArray("content")
        .addObject()
        .putObject("toolRequest")
        .put("name", "forecast")
        .put("ref", "f1")
        .set("input", arguments);
    JsonNode sent = random.nextInt(4) == 0 ? mutator.mutate(message) : message;
    Message decoded =
        tally.run("tool arguments", DECODED, sent, () -> Json.convert(sent, Message.class));
    if (decoded == null) {
      return;
    }
    boolean feedback = random.nextBoolean();
    GenerateOptions.Builder options =
        GenerateOptions.builder().model("tm").prompt("Weather?").tools(forecast);
    if (feedback) {
      options.use(new ToolCallFeedback());
    }
    toolModel.respond(ModelResponse.of(decoded, FinishReason.STOP));
    tally.run(
        feedback ? "tool arguments (feedback)" : "tool arguments",
        feedback ? Set.of(Status.OK) : TOOL_CALLS,
        sent,
        () -> baton.generate(options.build()).text());
    toolModel.reset();
    toolModel.fallback(request -> reply("done"));
  }

  /** Hostile IDs and prefixes against the stores, and against the agents over them. */
  private void storeIds(int folder, int index) {
    Instant at = HostileIds.at(index);
    switch (random.nextInt(6)) {
      case 0 -> ids.storeCase("store IDs", memory, root, tally, at);
      case 1 ->
          ids.storeCase("store IDs", files, root.with(HostileIds.PREFIX, ids.next()), tally, at);
      case 2, 3 -> ids.storeCase("store IDs", files, folder(folder), tally, at);
      default -> agentIds(random.nextBoolean() ? onFiles : inMemory, folder(folder));
    }
  }

  private void agentIds(Agent agent, ActionContext context) {
    String id = ids.next();
    Map<String, String> what = Map.of("agent", agent.name(), "id", id);
    switch (random.nextInt(5)) {
      case 0 ->
          runAgent(
              "agent IDs",
              ID_OUTCOMES,
              agent,
              context,
              inputs.get(0),
              Json.object().put("sessionId", id));
      case 1 ->
          runAgent(
              "agent IDs",
              LOOKUP_OUTCOMES,
              agent,
              context,
              inputs.get(0),
              Json.object().put("snapshotId", id));
      case 2 ->
          tally.run("agent IDs", LOOKUP_OUTCOMES, what, () -> agent.snapshots(context).get(id));
      case 3 ->
          tally.run("agent IDs", LOOKUP_OUTCOMES, what, () -> agent.snapshots(context).waitFor(id));
      default ->
          tally.run(
              "agent IDs",
              ID_OUTCOMES,
              what,
              () -> String.valueOf(agent.snapshots(context).abort(id)));
    }
  }

  // ---- helpers --------------------------------------------------------------------------------

  /**
   * Runs an agent on JSON as a remote client sends it. A failed output counts as its error; a
   * detached run is waited for at the end, and its outcome counted then.
   */
  private void runAgent(
      String kind,
      Set<Status> allowed,
      Agent agent,
      ActionContext context,
      JsonNode input,
      @Nullable JsonNode init) {
    Map<String, Object> what = new LinkedHashMap<>();
    what.put("agent", agent.name());
    what.put("input", input);
    if (init != null) {
      what.put("init", init);
    }
    JsonNode output =
        tally.run(
            kind,
            allowed,
            what,
            () -> agent.runJson(context, input, init, StreamCallback.discard()),
            HostileInputFuzzTest::error);
    if (output != null && "detached".equals(output.path("finishReason").asString(""))) {
      String snapshotId = output.path("snapshotId").asString();
      detachedRuns.add(
          () ->
              tally.run(
                  kind + " (detached)",
                  allowed,
                  what,
                  () -> agent.snapshots(context).waitFor(snapshotId),
                  snapshot -> snapshot.error()));
    }
  }

  private static @Nullable ErrorInfo error(JsonNode output) {
    JsonNode error = output.get("error");
    return error == null || error.isNull() ? null : Json.convert(error, ErrorInfo.class);
  }

  /**
   * A mutated copy of {@code valid}: of its tree, or of its text, then parsed as a server would.
   */
  private @Nullable JsonNode wire(String kind, JsonNode valid) {
    if (random.nextInt(10) > 0) {
      return mutator.mutate(valid);
    }
    String text = mutator.mutateText(valid);
    return tally.run(kind + " (text)", DECODED, text, () -> Json.parse(text));
  }

  /** The JSON text of a tree, or, for one too deep to write, a text that cuts it short. */
  private static String writable(JsonNode node) {
    try {
      return Json.write(node);
    } catch (BatonException tooDeep) {
      return "{\"snapshotId\": [[[[";
    }
  }

  private JsonNode pick(List<JsonNode> bases) {
    return bases.get(random.nextInt(bases.size()));
  }

  private static String folderName(int folder) {
    return "f" + folder;
  }

  private ActionContext folder(int folder) {
    return root.with(HostileIds.PREFIX, folderName(folder));
  }

  private static StreamCallback<AgentStreamChunk> discard() {
    return StreamCallback.discard();
  }

  /** The CPU time this JVM has used, all its threads together. */
  private static long cpuMillis() {
    return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(0L);
  }

  private static ModelResponse reply(String text) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP);
  }

  private static List<String> namesIn(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
