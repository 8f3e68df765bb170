package dev.baton.rules;

import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * One line of {@link JsonCopyContract#holders()}: a class that is not a record yet holds a JSON
 * tree, how to build it around a tree the contract then changes, and how to read the tree back.
 *
 * @param type the class the tree passes through: the value, or the builder it is given to
 * @param accessor what {@code read} reads, for messages: {@code "config"}, {@code "details"}
 * @param build builds a value around the given tree, which the value must not share
 * @param read the JSON the value hands out (a tree, or a list, map or optional of trees)
 * @param <T> the value's type
 */
public record JsonHolder<T>(
    Class<?> type, String accessor, Function<ObjectNode, T> build, Function<T, ?> read) {

  /** A line of the table; {@code build} and {@code read} as in the record's description. */
  public static <T> JsonHolder<T> of(
      Class<?> type, String accessor, Function<ObjectNode, T> build, Function<T, ?> read) {
    return new JsonHolder<>(type, accessor, build, read);
  }

  @Override
  public String toString() {
    return type.getName() + "." + accessor;
  }
}
