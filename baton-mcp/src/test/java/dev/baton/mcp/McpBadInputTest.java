package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.server.NodeFixture;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.function.Function;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import tools.jackson.databind.JsonNode;

/**
 * MCP servers that misbehave ({@code interop-misbehaving.js}, served by the TypeScript SDK but for
 * the raw malformed writer): each failure is a {@code BatonException} with a clear status, none
 * outlasts the client's timeout, and closing the client leaves no process behind.
 */
@Execution(ExecutionMode.CONCURRENT) // each test starts its own servers
class McpBadInputTest {
  private static final String SCRIPT = "interop-misbehaving.js";
  private static final Duration TIMEOUT = Duration.ofSeconds(3);

  /**
   * For the ten-megabyte results, which test no timeout: with the other tests running, moving and
   * parsing them can take longer than {@link #TIMEOUT}.
   */
  private static final Duration HUGE_TIMEOUT = Duration.ofSeconds(30);

  /** On the command line of this test's servers, which the script ignores. */
  private final String mark = Processes.mark();

  private @Nullable Baton baton;
  private NodeFixture.@Nullable Server httpServer;

  @BeforeAll
  static void node() {
    NodeFixture.require();
  }

  @AfterEach
  void closeAndCheckNothingIsLeft() {
    if (baton != null) {
      baton.close();
    }
    if (httpServer != null) {
      httpServer.close();
    }
    Processes.assertNoneLeft(mark);
  }

  private McpClient stdio(String mode) {
    return stdio(mode, TIMEOUT);
  }

  private McpClient stdio(String mode, Duration timeout) {
    return connect(
        b -> b.stdio("node", NodeFixture.DIR.resolve(SCRIPT).toString(), mode, "stdio", mark),
        timeout);
  }

  private McpClient http(String mode) {
    return http(mode, TIMEOUT);
  }

  private McpClient http(String mode, Duration timeout) {
    httpServer = NodeFixture.server(SCRIPT, mode, "http", mark);
    return connect(
        b -> b.http(URI.create("http://127.0.0.1:" + httpServer.port() + "/mcp")), timeout);
  }

  private McpClient connect(Function<McpClient.Builder, McpClient.Builder> transport) {
    return connect(transport, TIMEOUT);
  }

  private McpClient connect(
      Function<McpClient.Builder, McpClient.Builder> transport, Duration timeout) {
    McpClient client = transport.apply(Mcp.client("bad")).timeout(timeout).build();
    baton = Baton.builder().plugin(client).build();
    return client;
  }

  private JsonNode call(String tool) {
    assertThat(baton).isNotNull();
    return McpInteropClientTest.call(baton, tool, "{}");
  }

  /** The failure of {@code action}, which must come within the client's timeout and some slack. */
  private static BatonException failure(ThrowingCallable action) {
    long start = System.nanoTime();
    BatonException e = catchThrowableOfType(BatonException.class, action);
    assertThat(e).as("a BatonException").isNotNull();
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("bounded by the client's timeout")
        .isLessThan(TIMEOUT.plusSeconds(10));
    assertThat(e.getMessage()).as("names the server").contains("bad");
    return e;
  }

  @Test
  void malformedJsonRpcOnStdoutIsDeadlineExceeded() {
    McpClient client = stdio("malformed");

    // The SDK logs the first line that is not JSON-RPC and stops reading the server's output; the
    // server lives on, so the handshake waits out the client's timeout.
    BatonException e = failure(client::tools);

    assertThat(e.status()).as(e.getMessage()).isEqualTo(Status.DEADLINE_EXCEEDED);
  }

  @Test
  void aBannerLineOnStdoutBeforeTheHandshakeIsDeadlineExceeded() {
    McpClient client = stdio("banner");

    // A limit of the SDK's stdio transport, where the TypeScript SDK's client skips the line: it
    // stops reading at the first line that is not JSON-RPC, so the answer to initialize is never
    // read. (A Node server that lets the closed pipe kill it is UNAVAILABLE instead, if its answer
    // comes after the SDK closed the pipe.)
    BatonException e = failure(client::tools);

    assertThat(e.status()).as(e.getMessage()).isEqualTo(Status.DEADLINE_EXCEEDED);
  }

  @Test
  void aServerThatExitsAtStartIsUnavailableWithItsExitCode() {
    McpClient client = stdio("exit");

    BatonException e = failure(client::tools);

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    // What it wrote on stderr goes to the log only: it may hold stack traces or secrets.
    assertThat(e.getMessage())
        .endsWith("is unavailable: its process exited with code 3")
        .doesNotContain("exiting at start as asked");
  }

  @Test
  void aCommandThatDoesNotExistIsUnavailable() {
    McpClient client = connect(b -> b.stdio("baton-no-such-mcp-server-command"));

    assertThat(failure(client::tools).status()).isEqualTo(Status.UNAVAILABLE);
  }

  @Test
  void aServerThatNeverAnswersInitializeIsDeadlineExceeded() {
    McpClient client = stdio("silent-init");

    assertThat(failure(client::tools).status()).isEqualTo(Status.DEADLINE_EXCEEDED);
  }

  @Test
  void aServerThatNeverAnswersInitializeOverHttpIsDeadlineExceeded() {
    McpClient client = http("silent-init");

    assertThat(failure(client::tools).status()).isEqualTo(Status.DEADLINE_EXCEEDED);
  }

  @Test
  void aCallThatIsNeverAnsweredIsDeadlineExceeded() {
    stdio("silent-call");

    assertThat(failure(() -> call("bad/hang")).status()).isEqualTo(Status.DEADLINE_EXCEEDED);
  }

  @Test
  void aCallThatIsNeverAnsweredOverHttpIsDeadlineExceeded() {
    http("silent-call");

    assertThat(failure(() -> call("bad/hang")).status()).isEqualTo(Status.DEADLINE_EXCEEDED);
  }

  @Test
  void nothingListeningOverHttpIsUnavailable() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    McpClient client = connect(b -> b.http(URI.create("http://127.0.0.1:" + port + "/mcp")));

    assertThat(failure(client::tools).status()).isEqualTo(Status.UNAVAILABLE);
  }

  @Test
  void aToolTheServerDoesNotHaveIsNotFound() {
    stdio("silent-call");

    assertThat(failure(() -> call("bad/nope")).status()).isEqualTo(Status.NOT_FOUND);
  }

  @Test
  void aToolWhoseSchemaIsNotJsonSchemaIsOfferedToNoModelAndSaysWhyWhenCalled() {
    McpClient client = stdio("bad-schema");

    // No model is offered a schema its provider may refuse, with the whole request.
    assertThat(client.tools()).extracting(tool -> tool.name()).containsExactly("bad/fine");
    assertThat(call("bad/fine").stringValue()).isEqualTo("fine");
    BatonException broken = failure(() -> call("bad/broken"));
    assertThat(broken.status()).isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(broken.getMessage())
        .contains("\"broken\"", "not valid JSON Schema", "$.properties.x.type", "$.required");
  }

  @Test
  void aTenMegabyteResultArrivesWhole() {
    stdio("huge", HUGE_TIMEOUT);

    assertThat(text(call("bad/huge"))).hasSize(10 * 1024 * 1024);
  }

  @Test
  void aTenMegabyteResultArrivesWholeOverHttp() {
    http("huge", HUGE_TIMEOUT);

    assertThat(text(call("bad/huge"))).hasSize(10 * 1024 * 1024);
  }

  /** The longest string in a tool's answer: its text, whatever shape the answer has. */
  private static String text(JsonNode answer) {
    if (answer.isString()) {
      return answer.stringValue();
    }
    String longest = "";
    for (JsonNode child : answer) {
      String text = text(child);
      longest = text.length() > longest.length() ? text : longest;
    }
    return longest;
  }
}
