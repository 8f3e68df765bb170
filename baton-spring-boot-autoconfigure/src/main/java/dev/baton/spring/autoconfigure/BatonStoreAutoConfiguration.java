package dev.baton.spring.autoconfigure;

import dev.baton.agent.SessionStore;
import dev.baton.spring.autoconfigure.internal.SessionStores;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
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
}
