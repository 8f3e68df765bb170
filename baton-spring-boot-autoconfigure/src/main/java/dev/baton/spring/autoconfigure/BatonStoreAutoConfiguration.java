package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.agent.SessionStore;
import dev.baton.spring.autoconfigure.internal.SessionStores;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ResourceLoader;

/**
 * The {@link SessionStore} bean that agents keep their sessions in, chosen by {@code
 * baton.store.type} ({@link BatonProperties.StoreType}): by default PostgreSQL when {@code
 * baton-postgres} is on the class path and the context has a {@link DataSource} (Spring Boot's
 * pool), else the file store under {@code baton.store.file.directory} when it is set, else memory.
 * A {@code SessionStore} bean of the application's replaces it.
 *
 * <p>The PostgreSQL store this creates makes its tables at start when {@code
 * baton.store.postgres.create-schema} is on (the default), and checks that they exist when it is
 * off, so that a database the store cannot use fails the start rather than the first turn.
 *
 * <p>The store is the application's, not Baton's: the {@code Baton} bean closes first, when the
 * context stops, so that the runs it aborts are written through the store; the store (the
 * PostgreSQL store's status listener) closes after, when Spring destroys its bean. The {@code
 * DataSource} stays Spring Boot's.
 */
@AutoConfiguration(
    afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@EnableConfigurationProperties(BatonProperties.class)
public class BatonStoreAutoConfiguration {
  /** Created by Spring. */
  public BatonStoreAutoConfiguration() {}

  @Bean
  @ConditionalOnMissingBean
  SessionStore batonSessionStore(
      BatonProperties properties, ObjectProvider<DataSource> dataSource, ResourceLoader resources) {
    return new SessionStores(
            properties.store(), dataSource::getIfUnique, resources.getClassLoader())
        .create();
  }

  /**
   * Reads the store once all beans exist, when it is the PostgreSQL store made here: the read
   * creates the tables (or, with {@code create-schema} off, fails when they are missing).
   */
  @Bean
  @ConditionalOnBean(name = "batonSessionStore")
  SmartInitializingSingleton batonSessionStoreCheck(
      ObjectProvider<SessionStore> store, ObjectProvider<Baton> baton) {
    return () -> SessionStores.checkAtStart(store.getIfUnique(), baton.getIfUnique());
  }
}
