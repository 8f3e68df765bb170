package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.store.postgres.PostgresSessionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The session store bean: each choice of {@code baton.store.type}, and the application's own. */
class BatonStoreAutoConfigurationTest {
  private final ApplicationContextRunner contexts = Contexts.baton();
  private final ApplicationContextRunner withDataSource =
      contexts.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class));
  private final String schema = TestDatabase.newSchemaName();

  @TempDir Path directory;

  @AfterEach
  void dropSchema() throws SQLException {
    TestDatabase.dropSchema(schema);
  }

  @Test
  void withNothingConfiguredSessionsAreKeptInMemory() {
    contexts.run(
        context ->
            assertThat(context.getBean(SessionStore.class))
                .isInstanceOf(InMemorySessionStore.class));
  }

  @Test
  void aDirectoryGivesTheFileStoreThere() {
    Path sessions = directory.resolve("sessions");
    contexts
        .withPropertyValues("baton.store.file.directory=" + sessions)
        .run(
            context -> {
              assertThat(context.getBean(SessionStore.class)).isInstanceOf(FileSessionStore.class);
              assertThat(Files.isDirectory(sessions)).as("created when missing").isTrue();
            });
  }

  @Test
  void aDataSourceWithBatonPostgresGivesThePostgresStoreInTheConfiguredSchema() {
    withDataSource
        .withPropertyValues(TestDatabase.postgresProperties(schema))
        .withPropertyValues("baton.store.file.directory=" + directory)
        .run(
            context -> {
              SessionStore store = context.getBean(SessionStore.class);
              assertThat(store)
                  .as("PostgreSQL wins over the directory")
                  .isInstanceOf(PostgresSessionStore.class);
              assertThat(schemaExists(context.getBean(DataSource.class)))
                  .as("created at start, through Spring Boot's pool")
                  .isTrue();
              Baton baton = context.getBean(Baton.class);
              assertThat(store.getLatestSnapshot(baton.context(), "no-such-session")).isNull();
            });
  }

  @Test
  void withoutCreateSchemaAMissingSchemaFailsTheStart() {
    withDataSource
        .withPropertyValues(TestDatabase.postgresProperties(schema))
        .withPropertyValues("baton.store.postgres.create-schema=false")
        .run(
            context -> {
              assertThat(context).hasFailed();
              Throwable failure = context.getStartupFailure();
              while (failure != null && !(failure instanceof BatonException)) {
                failure = failure.getCause();
              }
              assertThat(failure)
                  .as("the store's refusal, in the start's failure")
                  .isInstanceOfSatisfying(
                      BatonException.class,
                      refusal ->
                          assertThat(refusal.status()).isEqualTo(Status.FAILED_PRECONDITION));
              PGSimpleDataSource server = new PGSimpleDataSource();
              server.setURL(TestDatabase.url());
              assertThat(schemaExists(server)).as("nothing created").isFalse();
            });
  }

  @Test
  void withoutBatonPostgresADataSourceIsLeftAloneAndForcingPostgresSaysWhatIsMissing() {
    ApplicationContextRunner withoutPostgres =
        withDataSource
            .withPropertyValues(TestDatabase.postgresProperties(schema))
            .withClassLoader(new FilteredClassLoader(PostgresSessionStore.class));
    withoutPostgres.run(
        context ->
            assertThat(context.getBean(SessionStore.class))
                .isInstanceOf(InMemorySessionStore.class));
    withoutPostgres
        .withPropertyValues("baton.store.type=postgres")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessage(
                        "baton.store.type=postgres needs dev.baton:baton-postgres on the class path"));
  }

  @Test
  void forcingPostgresWithoutADataSourceSaysWhatIsMissing() {
    contexts
        .withPropertyValues("baton.store.type=postgres")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageStartingWith("baton.store.type=postgres needs a DataSource bean"));
  }

  @Test
  void forcingTheFileStoreWithoutADirectorySaysWhatIsMissing() {
    contexts
        .withPropertyValues("baton.store.type=file")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining(
                        "baton.store.type=file needs baton.store.file.directory"));
  }

  @Test
  void forcingMemoryIgnoresTheDataSource() {
    withDataSource
        .withPropertyValues(TestDatabase.postgresProperties(schema))
        .withPropertyValues("baton.store.type=memory")
        .run(
            context ->
                assertThat(context.getBean(SessionStore.class))
                    .isInstanceOf(InMemorySessionStore.class));
  }

  @Test
  void aSessionStoreBeanOfTheApplicationReplacesOurs() {
    contexts
        .withPropertyValues("baton.store.file.directory=" + directory)
        .withUserConfiguration(OwnStore.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(SessionStore.class);
              assertThat(context.getBean(SessionStore.class)).isSameAs(OwnStore.STORE);
            });
  }

  private boolean schemaExists(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?")) {
      query.setString(1, schema);
      try (ResultSet result = query.executeQuery()) {
        return result.next() && result.getInt(1) == 1;
      }
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnStore {
    static final SessionStore STORE = InMemorySessionStore.create();

    @Bean
    SessionStore ownStore() {
      return STORE;
    }
  }
}
