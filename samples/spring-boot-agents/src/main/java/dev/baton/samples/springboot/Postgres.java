package dev.baton.samples.springboot;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A connection pool to PostgreSQL when {@code spring.datasource.url} is set ({@code
 * application.yaml} maps {@code BATON_POSTGRES_URL} onto it); the starter then keeps sessions in
 * PostgreSQL rather than in memory. Boot's own {@code DataSource} auto-configuration would fail to
 * start the application without a URL, so the sample builds the pool itself, from the same {@code
 * spring.datasource.*} properties, only when there is one.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${spring.datasource.url:}'.isBlank()")
@EnableConfigurationProperties(DataSourceProperties.class)
class Postgres {
  @Bean
  @ConfigurationProperties("spring.datasource.hikari")
  HikariDataSource dataSource(DataSourceProperties properties) {
    return properties.initializeDataSourceBuilder().type(HikariDataSource.class).build();
  }
}
