package dev.baton.store.postgres;

import dev.baton.core.Json;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A statement assembled from fragments, each with the values of its own {@code ?} placeholders, so
 * a write can be put together from the parts a save needs (a new branch, new messages, the row) and
 * still be sent as one statement, in one round trip. Values go to {@link
 * PreparedStatement#setObject}; the SQL casts every placeholder ({@code ?::json}), so a null needs
 * no type.
 *
 * <p>Not thread-safe; build, run and drop.
 */
final class Sql {
  private final StringBuilder text = new StringBuilder();
  private final List<@Nullable Object> values = new ArrayList<>();

  private Sql() {}

  /** A statement, or the first fragment of one. */
  static Sql of(String fragment, @Nullable Object... values) {
    return new Sql().append(fragment, values);
  }

  /**
   * A value as JSON text for a {@code ?::json} placeholder. The text is decoded from the bytes
   * Jackson writes, in which a lone surrogate of the value's strings is a <code>&#92;uD800</code>
   * escape, so the driver's UTF-8 encoder never meets one and puts no {@code ?} in its place; a
   * {@code json} column keeps the escape as written.
   */
  static String json(Object value) {
    return new String(Json.writeBytes(value), StandardCharsets.UTF_8);
  }

  /** Appends a fragment and the values of its placeholders. */
  Sql append(String fragment, @Nullable Object... values) {
    text.append(fragment);
    this.values.addAll(Arrays.asList(values));
    return this;
  }

  /** Appends another statement's text and values. */
  Sql append(Sql other) {
    text.append(other.text);
    values.addAll(other.values);
    return this;
  }

  /** The statement prepared on {@code connection} with its values bound; the caller closes it. */
  PreparedStatement prepare(Connection connection) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(text.toString());
    try {
      for (int i = 0; i < values.size(); i++) {
        statement.setObject(i + 1, values.get(i));
      }
      return statement;
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }

  /** Runs the statement as an update; the number of rows it changed. */
  int update(Connection connection) throws SQLException {
    try (PreparedStatement statement = prepare(connection)) {
      return statement.executeUpdate();
    }
  }
}
