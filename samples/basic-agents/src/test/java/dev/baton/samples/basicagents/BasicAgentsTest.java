package dev.baton.samples.basicagents;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.baton.plugins.vertexai.VertexAI;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BasicAgentsTest {

  @Test
  void theCoordinatorDelegatesAndAnswersInTermsOfTheRequest() throws Exception {
    String text = run("1\nExplain binary search\nAnd its cost?\n/quit\n");

    assertThat(text)
        .contains("Talk to 1) the coordinator")
        .contains("? [1] 1\n")
        .contains("Model: scripted demo model (no provider configured)")
        // The two delegations start in parallel, so either may be printed first.
        .containsPattern("\nyou> Explain binary search\n  → (researcher|coder): ")
        .contains("  → researcher: Find the key facts about: Explain binary search")
        .contains("  → coder: Write a short example of: Explain binary search")
        .contains("  ← researcher finished")
        .contains("  ← coder finished")
        .contains(" finished\ncoordinator> Here is what the team found.")
        .contains("The researcher's notes cover Explain binary search: what it is")
        .contains("  → researcher: Find the key facts about: And its cost?")
        .contains("notes cover And its cost?")
        .contains("Session ")
        .containsPattern(
            "usage> coordinator: 3 calls, [\\d,]+ tokens \\([\\d,]+ tokens with its delegations\\)\n")
        .containsPattern("usage>   researcher: 2 calls, [\\d,]+ tokens\n")
        .containsPattern("usage>   coder: 2 calls, [\\d,]+ tokens\n");
    assertThat(text.indexOf("usage> coordinator"))
        .isGreaterThan(text.indexOf("Here is what the team found"));
    assertThat(text.indexOf("  ← researcher finished"))
        .isLessThan(text.indexOf("Here is what the team found"));
  }

  @Test
  void aFirstLineThatPicksNoOrchestratorIsTheFirstRequestToTheCoordinator() throws Exception {
    String text = run("Explain binary search\n/quit\n");

    assertThat(text)
        .contains("? [1] Explain binary search\n")
        // The two delegations start in parallel, so either may be printed first.
        .containsPattern("\nyou> Explain binary search\n  → (researcher|coder): ")
        .contains("coordinator> Here is what the team found.")
        .contains("The researcher's notes cover Explain binary search: ");
  }

  @Test
  void underGenkitStartTheLinesReadAreNotEchoedSinceTheCliTerminalShowsThem() throws Exception {
    String text = run("1\nExplain binary search\n/quit\n", Map.of("GENKIT_ENV", "dev"));

    assertThat(text)
        .contains("  → researcher: Find the key facts about: Explain binary search")
        .doesNotContain("? [1] 1")
        .doesNotContain("you> Explain binary search");
  }

  @Test
  void inputThatEndsBeforeAnyRequestSaysSo() throws Exception {
    String text = run("1\n");

    assertThat(text).contains("No request made, so no session was saved.").doesNotContain("null");
  }

  @Test
  void theCommanderBackgroundsItsInvestigatorsAndFoldsThemInAsTheySettle() throws Exception {
    String text = runCommander("checkout-api is throwing 500s and customers can't pay\n/quit\n");

    assertThat(text)
        .doesNotContain("Talk to 1)")
        .containsPattern("\\[task] log_analyst [0-9a-f]{8} pending")
        .containsPattern("\\[task] deploy_auditor [0-9a-f]{8} pending")
        .contains("[status] Investigating checkout-api: log scan and deploy audit started.")
        .containsPattern("\\[task] log_analyst [0-9a-f]{8} completed")
        .containsPattern("\\[task] deploy_auditor [0-9a-f]{8} completed")
        .contains("[status] Interim: ")
        .contains("[status] Resolved: ")
        .contains("commander> Incident summary for checkout-api: ")
        .contains("Failure signature for checkout-api: 12:01:07 ERROR checkout-api POST /pay 500")
        .contains("Suspect deploy for checkout-api: 11:52 checkout-api v2.14.0");
    assertThat(text.indexOf("[status] Investigating"))
        .as("the first update is posted while the investigators run")
        .isLessThan(text.indexOf("log_analyst", text.indexOf("[status] Investigating")));
    assertThat(text.indexOf("[status] Interim"))
        .isLessThan(text.indexOf("commander> Incident summary"));
  }

  @Test
  void theCommanderInvestigatesTheServiceItIsGiven() throws Exception {
    String text = runCommander("payments-db latency is spiking\n/quit\n");

    assertThat(text).contains("\nyou> payments-db latency is spiking\n");
    String incident = text.substring(text.indexOf("you> payments-db latency is spiking"));
    assertThat(incident)
        .contains("[status] Investigating payments-db: log scan and deploy audit started.")
        .contains(
            "commander> Incident summary for payments-db: No errors or warnings in the logs of"
                + " payments-db; No recent deploys of payments-db.")
        .doesNotContain("checkout-api");
  }

  @Test
  void theCommanderAnswersAFollowUpFromWhatItHasAlreadyFound() throws Exception {
    String text =
        runCommander("checkout-api is throwing 500s and customers can't pay\nAny update?\n/quit\n");

    assertThat(text).contains("\nyou> Any update?\n");
    String followUp = text.substring(text.indexOf("you> Any update?"));
    assertThat(followUp)
        .contains(
            "commander> Nothing new on checkout-api since the last update. The findings: Failure"
                + " signature for checkout-api: 12:01:07 ERROR checkout-api POST /pay 500")
        .doesNotContain("[task]")
        .doesNotContain("[status]");
    assertThat(text.split("\\[status] Investigating", -1)).as("investigations launched").hasSize(2);
  }

  @Test
  void theCommanderAsksWhichServiceWhenTheRequestNamesNone() throws Exception {
    String text = runCommander("the site is down\n/quit\n");

    assertThat(text)
        .contains("commander> Which service is affected? Name it, as in: checkout-api is throwing")
        .doesNotContain("[task]");
  }

  private static String runCommander(String input) throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit =
        BasicAgents.run(
            new String[] {"commander"},
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(captured, true, StandardCharsets.UTF_8),
            Map.of(),
            false);
    String text = captured.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(text).isZero();
    return text;
  }

  private static String run(String input) throws Exception {
    return run(input, Map.of());
  }

  /** Runs the chat on piped input, which no terminal shows. */
  private static String run(String input, Map<String, String> env) throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit =
        BasicAgents.run(
            new String[0],
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(captured, true, StandardCharsets.UTF_8),
            env,
            false);
    String text = captured.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(text).isZero();
    return text;
  }

  @Test
  void withBatonPostgresUrlTheCoordinatorKeepsItsSessionsInPostgres() throws Exception {
    String url =
        System.getenv()
            .getOrDefault(
                "BATON_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    String schema =
        "baton_sample_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    byte[] input = "Explain binary search\n/quit\n".getBytes(StandardCharsets.UTF_8);

    try {
      int exit =
          BasicAgents.run(
              new String[] {"coordinator"},
              new ByteArrayInputStream(input),
              new PrintStream(captured, true, StandardCharsets.UTF_8),
              Map.of("BATON_POSTGRES_URL", url, "BATON_POSTGRES_SCHEMA", schema),
              false);

      String text = captured.toString(StandardCharsets.UTF_8);
      assertThat(exit).as(text).isZero();
      assertThat(text)
          .contains("Sessions: PostgreSQL at " + url.split("\\?")[0] + "\n")
          .contains("Here is what the team found.");
      String session = text.substring(text.lastIndexOf("Session ") + 8).split(",")[0];
      try (Connection connection = DriverManager.getConnection(url);
          Statement statement = connection.createStatement();
          ResultSet rows =
              statement.executeQuery(
                  "SELECT count(*) FROM "
                      + schema
                      + ".baton_snapshots WHERE session_id = '"
                      + session
                      + "'")) {
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

  @Test
  void geminiKeyThenOpenAiSettingsThenGoogleKey() {
    Map<String, String> everything =
        Map.of(
            "GEMINI_API_KEY", "g",
            "GOOGLE_API_KEY", "k",
            "OPENAI_BASE_URL", "http://localhost:11434/v1",
            "OPENAI_MODEL", "llama3.2");
    assertThat(Provider.choose(everything).label()).startsWith("Gemini API");
    Map<String, String> strayGoogleKey = new HashMap<>(everything);
    strayGoogleKey.remove("GEMINI_API_KEY");
    assertThat(Provider.choose(strayGoogleKey).label())
        .isEqualTo("http://localhost:11434/v1, openai/llama3.2");
    assertThat(Provider.choose(Map.of("GOOGLE_API_KEY", "k")).model())
        .isEqualTo("googleai/gemini-flash-latest");
    assertThat(Provider.choose(Map.of("OPENAI_API_KEY", "k")).model())
        .isEqualTo("openai/gpt-4o-mini");
  }

  @Test
  void aBaseUrlWithoutAModelStopsTheSampleWithExitCodeTwoAndSaysWhatToSet() throws Exception {
    Map<String, String> env = Map.of("OPENAI_BASE_URL", "http://localhost:11434/v1");
    ByteArrayOutputStream captured = new ByteArrayOutputStream();

    int exit =
        BasicAgents.run(
            new String[] {"coordinator"},
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(captured, true, StandardCharsets.UTF_8),
            env,
            false);

    assertThat(exit).isEqualTo(2);
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("OPENAI_BASE_URL")
        .contains("set OPENAI_MODEL");
    assertThat(
            Provider.choose(
                    Map.of(
                        "OPENAI_BASE_URL", "http://localhost:11434/v1", "BATON_MODEL", "openai/q"))
                .model())
        .isEqualTo("openai/q");
  }

  @Test
  void aProviderIsChosenFromTheEnvironment() {
    assertThat(Provider.choose(Map.of()).isDemo()).isTrue();
    assertThat(Provider.choose(Map.of("GEMINI_API_KEY", "k")).model())
        .isEqualTo("googleai/gemini-flash-latest");
    assertThat(
            Provider.choose(
                    Map.of(
                        "OPENAI_BASE_URL", "http://localhost:11434/v1", "OPENAI_MODEL", "llama3.2"))
                .model())
        .isEqualTo("openai/llama3.2");
    assertThat(
            Provider.choose(Map.of("OPENAI_API_KEY", "k", "BATON_MODEL", "openai/gpt-4.1")).label())
        .contains("gpt-4.1");
  }

  @Test
  void claudeWhenAnAnthropicKeyIsSetAndVertexAiWhenAProjectHasCredentials() {
    GoogleCredentials adc =
        GoogleCredentials.create(new AccessToken("t", Date.from(Instant.now().plusSeconds(3600))));
    assertThat(Provider.choose(Map.of("ANTHROPIC_API_KEY", "k")).model())
        .isEqualTo("anthropic/claude-sonnet-4-5");
    assertThat(
            Provider.choose(Map.of("ANTHROPIC_API_KEY", "k", "OPENAI_API_KEY", "o"), () -> adc)
                .label())
        .startsWith("Anthropic API");

    Provider vertex = Provider.choose(Map.of("GOOGLE_CLOUD_PROJECT", "my-project"), () -> adc);
    assertThat(vertex.model()).isEqualTo("vertexai/gemini-2.5-flash");
    assertThat(vertex.plugin()).isInstanceOf(VertexAI.class);
    assertThat(vertex.label())
        .isEqualTo("Vertex AI, my-project in global, vertexai/gemini-2.5-flash");
    assertThat(
            Provider.choose(
                    Map.of(
                        "GOOGLE_CLOUD_PROJECT", "my-project",
                        "GOOGLE_CLOUD_LOCATION", "us-east5",
                        "BATON_MODEL", "vertexai/claude-sonnet-4-5@20250929",
                        "GOOGLE_API_KEY", "k"),
                    () -> adc)
                .label())
        .isEqualTo("Vertex AI, my-project in us-east5, vertexai/claude-sonnet-4-5@20250929");

    // A project without credentials is a stray setting: the next choice, or the demo model.
    assertThat(Provider.choose(Map.of("GOOGLE_CLOUD_PROJECT", "p"), () -> null).isDemo()).isTrue();
    assertThat(
            Provider.choose(Map.of("GOOGLE_CLOUD_PROJECT", "p", "GOOGLE_API_KEY", "k"), () -> null)
                .model())
        .isEqualTo("googleai/gemini-flash-latest");
  }
}
