package dev.baton.samples.agentsserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import dev.baton.server.BatonServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The README's curl examples, run against the sample on a free port with the demo model. */
class BasicAgentsServerTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private static final String HELLO =
      "{\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"Where in Portugal?\"}]}}";

  private String post(BatonServer server, String path, String body) throws Exception {
    return http.send(
            HttpRequest.newBuilder(server.uri().resolve(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private String get(BatonServer server, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(server.uri().resolve(path)).GET().build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void theReadmesExamplesWork(@TempDir Path dir) throws Exception {
    String printed = readmesExamples(Map.of("BATON_SNAPSHOT_DIR", dir.toString()));
    assertThat(printed).contains("sessions in " + dir.toAbsolutePath());
    assertThat(dir.resolve("chat")).isNotEmptyDirectory();
  }

  @Test
  void withBatonPostgresUrlTheSessionsAreKeptInPostgres() throws Exception {
    String url =
        System.getenv()
            .getOrDefault(
                "BATON_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    String schema =
        "baton_sample_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try {
      String printed =
          readmesExamples(Map.of("BATON_POSTGRES_URL", url, "BATON_POSTGRES_SCHEMA", schema));
      assertThat(printed).contains("sessions in PostgreSQL at " + url.split("\\?")[0] + "\n");
      try (Connection connection = DriverManager.getConnection(url);
          Statement statement = connection.createStatement();
          ResultSet rows =
              statement.executeQuery(
                  "SELECT count(*) FROM " + schema + ".baton_snapshots WHERE tenant = 'chat'")) {
        rows.next();
        assertThat(rows.getInt(1)).isPositive();
      }
    } finally {
      try (Connection connection = DriverManager.getConnection(url);
          Statement statement = connection.createStatement()) {
        statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
    }
  }

  /** Runs the README's examples against the sample started with {@code env}; what it printed. */
  private String readmesExamples(Map<String, String> env) throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (SessionStores stores = SessionStores.choose(env);
        BatonServer server =
            BasicAgentsServer.start(
                env,
                stores,
                "127.0.0.1",
                0,
                new PrintStream(printed, true, StandardCharsets.UTF_8))) {
      assertThat(printed.toString(StandardCharsets.UTF_8))
          .contains("POST " + server.uri() + "/agents/chat");

      JsonNode first =
          Json.parse(post(server, "/agents/chat", "{\"data\": " + HELLO + "}")).get("result");
      assertThat(first.at("/message/content/0/text").stringValue())
          .startsWith("(demo) About \"Where in Portugal?\"");
      String session = first.get("sessionId").stringValue();
      JsonNode second =
          Json.parse(
                  post(
                      server,
                      "/agents/chat",
                      "{\"data\": " + HELLO + ", \"init\": {\"sessionId\": \"" + session + "\"}}"))
              .get("result");
      JsonNode snapshot =
          Json.parse(
                  post(
                      server,
                      "/agents/chat/getSnapshot",
                      "{\"data\": {\"snapshotId\": \""
                          + second.get("snapshotId").stringValue()
                          + "\"}}"))
              .get("result");
      assertThat(snapshot.get("parentId")).isEqualTo(first.get("snapshotId"));

      JsonNode stateless =
          Json.parse(post(server, "/agents/statelessChat", "{\"data\": " + HELLO + "}"));
      assertThat(stateless.at("/result/state/messages")).hasSize(2);

      String streamed = post(server, "/agents/chat?stream=true", "{\"data\": " + HELLO + "}");
      assertThat(streamed).startsWith("data: {\"message\":").contains("\ndata: {\"result\":");

      JsonNode detached =
          Json.parse(
                  post(
                      server,
                      "/agents/chat",
                      "{\"data\": {\"message\": {\"role\": \"user\", \"content\": [{\"text\":"
                          + " \"Plan it slowly\"}]}, \"detach\": true}}"))
              .get("result");
      assertThat(detached.get("finishReason").stringValue()).isEqualTo("detached");
      String pending =
          "{\"data\": {\"snapshotId\": \"" + detached.get("snapshotId").stringValue() + "\"}}";
      assertThat(
              Json.parse(post(server, "/agents/chat/abort", pending))
                  .at("/result/status")
                  .stringValue())
          .isEqualTo("aborted");
      assertThat(
              Json.parse(post(server, "/agents/chat/waitForSnapshot", pending))
                  .at("/result/finishReason")
                  .stringValue())
          .isEqualTo("aborted");

      String refused =
          post(
              server,
              "/agents/chat",
              "{\"data\": " + HELLO + ", \"init\": {\"snapshotId\": \"nope\"}}");
      assertThat(Json.parse(refused).get("status").stringValue()).isEqualTo("NOT_FOUND");

      // The README's console: the page, and the sessions it lists, the chat's among them.
      assertThat(printed.toString(StandardCharsets.UTF_8)).contains(server.uri() + "/console/");
      assertThat(get(server, "/console/")).contains("<title>Baton console</title>");
      List<String> listed = new ArrayList<>();
      for (JsonNode row :
          Json.parse(get(server, "/console/api/sessions?agent=chat")).get("sessions")) {
        listed.add(row.get("sessionId").stringValue());
      }
      assertThat(listed).contains(session);
    }
    return printed.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theCoordinatorsSessionShowsItsBackgroundResearchInTheConsole(@TempDir Path dir)
      throws Exception {
    Map<String, String> env = Map.of("BATON_SNAPSHOT_DIR", dir.toString());
    try (SessionStores stores = SessionStores.choose(env);
        BatonServer server =
            BasicAgentsServer.start(
                env, stores, "127.0.0.1", 0, new PrintStream(new ByteArrayOutputStream()))) {
      JsonNode turn =
          Json.parse(post(server, "/agents/coordinator", "{\"data\": " + HELLO + "}"))
              .get("result");
      assertThat(turn.at("/message/content/0/text").stringValue())
          .isEqualTo(
              "(demo) The researcher reports: (demo) Findings on \"Where in Portugal?\": the key"
                  + " facts fit in a sentence or two.");

      JsonNode sessions = Json.parse(get(server, "/console/api/sessions?agent=coordinator"));
      assertThat(sessions.at("/sessions/0/sessionId")).isEqualTo(turn.get("sessionId"));
      JsonNode tree =
          Json.parse(
              get(
                  server,
                  "/console/api/agents/coordinator/snapshots/"
                      + turn.get("snapshotId").stringValue()
                      + "/delegations"));
      assertThat(tree.get("agent").stringValue()).isEqualTo("coordinator");
      assertThat(tree.get("children")).hasSize(1);
      JsonNode research = tree.get("children").get(0);
      assertThat(research.get("agent").stringValue()).isEqualTo("researcher");
      assertThat(research.get("name").stringValue()).isEqualTo("research");
      assertThat(research.get("background").booleanValue()).isTrue();
      assertThat(research.get("status").stringValue()).isEqualTo("completed");
    }
  }
}
