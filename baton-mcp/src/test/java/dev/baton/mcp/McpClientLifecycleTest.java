package dev.baton.mcp;

import static dev.baton.mcp.TestServers.script;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A stdio server's life: started on first use, stopped with its process tree, restarted after it
 * died, and every way a call can end without an answer (a crash, a timeout, a cancellation).
 */
class McpClientLifecycleTest {
  private final Baton baton = Baton.builder().build();

  private JsonNode run(Tool<?, ?> tool, ActionContext context, JsonNode input) {
    return tool.runJson(context, input, null, StreamCallback.discard());
  }

  private String call(McpClient client, String tool) {
    return run(find(client, tool), baton.context(), Json.object()).path("output").asString();
  }

  private static Tool<?, ?> find(McpClient client, String tool) {
    String name = client.name() + "/" + tool;
    return client.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  private static ProcessHandle process(long pid) {
    return ProcessHandle.of(pid).orElseThrow();
  }

  @Test
  void theServerStartsOnFirstLookupNotWhenBatonIsBuilt(@TempDir Path dir) throws Exception {
    Path started = dir.resolve("started");
    McpClient client =
        TestServers.stdio("lazy").environment("STARTED_FILE", started.toString()).build();
    Baton withPlugin = Baton.builder().plugin(client).build();
    try {
      assertThat(started).doesNotExist();

      Tool<?, ?> echo = Tool.lookup(withPlugin.registry(), "lazy/echo");

      assertThat(started).exists();
      assertThat(echo.definition().description()).isEqualTo("Echoes its text");
      assertThat(withPlugin.registry().lookup("/tool/lazy/no_such_tool")).isEmpty();
    } finally {
      withPlugin.close();
    }
    long pid = Long.parseLong(Files.readString(started));
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
  }

  @Test
  void closeStopsTheWholeProcessTree() {
    McpClient client = TestServers.stdio("tree").environment("SPAWN_CHILD", "1").build();
    JsonNode pids = Json.parse(call(client, "pids"));
    ProcessHandle server = process(pids.path("pid").asLong());
    ProcessHandle grandchild = process(pids.path("child").asLong());
    assertThat(server.isAlive()).isTrue();
    assertThat(grandchild.isAlive()).isTrue();
    assertThat(ProcessHandle.current().descendants()).contains(server, grandchild);

    client.close();

    await().atMost(Duration.ofSeconds(20)).until(() -> !server.isAlive() && !grandchild.isAlive());
    assertThatThrownBy(client::tools)
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION));
  }

  @Test
  void batonCloseStopsARegisteredClientsServer() {
    McpClient client = TestServers.stdio("owned").environment("SPAWN_CHILD", "1").build();
    Baton owner = Baton.builder().plugin(client).build();
    Tool<?, ?> pidsTool = Tool.lookup(owner.registry(), "owned/pids");
    JsonNode pids =
        Json.parse(run(pidsTool, owner.context(), Json.object()).path("output").asString());
    ProcessHandle server = process(pids.path("pid").asLong());
    ProcessHandle grandchild = process(pids.path("child").asLong());

    owner.close();

    await().atMost(Duration.ofSeconds(20)).until(() -> !server.isAlive() && !grandchild.isAlive());
  }

  @Test
  void aServerThatDiesMidCallIsUnavailableAndTheNextCallRestartsIt() {
    try (McpClient client = TestServers.stdio("crashy").build()) {
      Tool<?, ?> crash = find(client, "crash");

      assertThatThrownBy(() -> run(crash, baton.context(), Json.object()))
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                assertThat(e.getMessage())
                    .contains("\"crashy\"")
                    .doesNotContain("Exception")
                    .doesNotContain("\tat ")
                    .doesNotContain("    at ");
              });

      assertThat(call(client, "removable")).isEqualTo("still here");
    }
  }

  @Test
  void aServerThatExitsAtStartIsUnavailableWithItsExitCodeNotItsStderr() {
    dev.baton.server.NodeFixture.require();
    try (McpClient client =
        Mcp.client("broken").stdio("node", script("client-exit-at-start.js")).build()) {
      assertThatThrownBy(client::tools)
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                // Its stderr may hold stack traces and secrets: it goes to the log only.
                assertThat(e.getMessage())
                    .isEqualTo(
                        "MCP server \"broken\" is unavailable: its process exited with code 2");
              });
    }
  }

  @Test
  void aCommandThatCannotRunIsUnavailable() {
    try (McpClient client = Mcp.client("missing").stdio("/nonexistent/mcp-server").build()) {
      assertThatThrownBy(client::tools)
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                assertThat(e.getMessage()).contains("\"missing\"").doesNotContain("Exception");
              });
    }
  }

  @Test
  void aCallThatTakesTooLongIsDeadlineExceededAndTheServerIsToldToStop() {
    try (McpClient client = TestServers.stdio("slow").timeout(Duration.ofSeconds(1)).build()) {
      Tool<?, ?> sleep = find(client, "sleep");

      assertThatThrownBy(() -> run(sleep, baton.context(), Json.object()))
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED);
                assertThat(e.getMessage()).contains("\"slow\"");
              });

      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> assertThat(call(client, "cancellations")).contains("\"reason\":\"timed out\""));
    }
  }

  @Test
  void cancellingTheCallerSendsTheServerACancellation() throws Exception {
    try (McpClient client = TestServers.stdio("cancel").build()) {
      Tool<?, ?> sleep = find(client, "sleep");
      Cancellation cancellation = Cancellation.create();
      ActionContext context = baton.context().withCancellation(cancellation);
      CompletableFuture<JsonNode> call =
          CompletableFuture.supplyAsync(() -> run(sleep, context, Json.object()));
      await().atMost(Duration.ofSeconds(20)).until(() -> call(client, "sleeps_begun").equals("1"));

      cancellation.cancel();

      assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> assertThat(call(client, "cancellations")).contains("\"reason\":\"cancelled\""));
    }
  }

  @Test
  void aCancellationOfAnyStatusSendsTheServerACancellation() throws Exception {
    try (McpClient client = TestServers.stdio("aborted").build()) {
      Tool<?, ?> sleep = find(client, "sleep");
      Cancellation cancellation = Cancellation.create();
      ActionContext context = baton.context().withCancellation(cancellation);
      CompletableFuture<JsonNode> call =
          CompletableFuture.supplyAsync(() -> run(sleep, context, Json.object()));
      await().atMost(Duration.ofSeconds(20)).until(() -> call(client, "sleeps_begun").equals("1"));

      cancellation.cancel(BatonException.of(Status.ABORTED, "the task was aborted"));

      assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.ABORTED));
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> assertThat(call(client, "cancellations")).contains("\"reason\":\"cancelled\""));
    }
  }

  @Test
  void aServerThatIgnoresSigtermIsKilled() {
    McpClient client = TestServers.stdio("stubborn").environment("IGNORE_SIGTERM", "1").build();
    ProcessHandle server = process(Json.parse(call(client, "pids")).path("pid").asLong());

    client.close();

    await().atMost(Duration.ofSeconds(20)).until(() -> !server.isAlive());
  }

  @Test
  void theServerGetsOnlySafeVariablesOfTheJvmsEnvironment() {
    // BATON_MCP_TEST_SECRET is set for the tests' JVM (see the pom).
    assertThat(System.getenv("BATON_MCP_TEST_SECRET")).isEqualTo("s3cret");
    try (McpClient client = TestServers.stdio("env").environment("MINE", "given").build()) {
      assertThat(env(client, "BATON_MCP_TEST_SECRET")).isEqualTo("<unset>");
      assertThat(env(client, "MINE")).isEqualTo("given");
      assertThat(env(client, "PATH")).isEqualTo(System.getenv("PATH"));
    }
    try (McpClient client = TestServers.stdio("inherit").inheritEnvironment().build()) {
      assertThat(env(client, "BATON_MCP_TEST_SECRET")).isEqualTo("s3cret");
    }
  }

  private String env(McpClient client, String variable) {
    return run(find(client, "env"), baton.context(), Json.object().put("name", variable))
        .path("output")
        .asString();
  }

  @Test
  void aListChangeReplacesTheToolsAndARemovedToolIsNotFound() {
    try (McpClient client = TestServers.stdio("changing").build()) {
      Tool<?, ?> removable = find(client, "removable");
      assertThat(call(client, "removable")).isEqualTo("still here");

      assertThat(call(client, "change_tools")).isEqualTo("changed");

      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(client.tools())
                      .extracting(Tool::name)
                      .contains("changing/added")
                      .doesNotContain("changing/removable"));
      assertThatThrownBy(() -> run(removable, baton.context(), Json.object()))
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.NOT_FOUND);
                assertThat(e.getMessage())
                    .isEqualTo("MCP server \"changing\" no longer offers tool \"removable\"");
              });
      assertThat(call(client, "added")).isEqualTo("new");
    }
  }

  @Test
  void closeDuringAStartDoesNotWaitForTheHandshake() throws Exception {
    dev.baton.server.NodeFixture.require();
    String marker = "baton-silent-" + System.nanoTime();
    McpClient client =
        Mcp.client("silent").stdio("node", "-e", "setInterval(() => {}, 1000)", marker).build();
    CompletableFuture<?> starting = CompletableFuture.runAsync(client::tools);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                ProcessHandle.current()
                    .descendants()
                    .anyMatch(
                        p ->
                            p.info()
                                .arguments()
                                .map(a -> java.util.Arrays.asList(a).contains(marker))
                                .orElse(false)));

    client.close();

    // The handshake would wait 30 s; close() ends it instead.
    assertThatThrownBy(() -> starting.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION));
  }

  @Test
  void theBuilderRejectsWhatCannotWork() {
    assertThatThrownBy(() -> Mcp.client("a/b"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    assertThatThrownBy(() -> Mcp.client("none").build())
        .hasMessageContaining("exactly one of stdio(...) and http(...)");
    assertThatThrownBy(() -> Mcp.client("mixed").stdio("node").header("X-Api-Key", "k").build())
        .hasMessageContaining("header(...) and bearerToken(...) only with http(...)");
    assertThatThrownBy(() -> Mcp.client("t").timeout(Duration.ZERO))
        .hasMessageContaining("the timeout must be positive");
    assertThatThrownBy(() -> Mcp.client("u").http(java.net.URI.create("ftp://x/mcp")))
        .hasMessageContaining("absolute http(s) URI");
    assertThatThrownBy(
            () -> Mcp.client("h").http(java.net.URI.create("http://x/mcp")).header("Host", "y"))
        .hasMessageContaining("the HTTP client sets header Host itself");
    assertThatThrownBy(
            () ->
                Mcp.client("e")
                    .http(java.net.URI.create("http://x/mcp"))
                    .inheritEnvironment()
                    .build())
        .hasMessageContaining("inheritEnvironment() only with stdio(...)");
    // build() starts nothing: a command that cannot run fails only when used.
    assertThatCode(() -> Mcp.client("lazy").stdio("/nonexistent/never-run").build().close())
        .doesNotThrowAnyException();
  }
}
