package dev.baton.ai;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The small template language of prompt strings: {@code {{name}}} or {@code {{a.b}}} is replaced by
 * that field of the input (strings as they are, other values as JSON); a missing field renders as
 * nothing. There are no helpers or blocks: for anything more, give the prompt a function.
 */
final class PromptTemplate {
  private static final Pattern PATH_DOT = Pattern.compile("\\.");
  private static final Pattern FIELD = Pattern.compile("\\{\\{\\s*([A-Za-z_][\\w.]*)\\s*}}");

  private PromptTemplate() {}

  static String render(String template, JsonNode input) {
    if (template.indexOf("{{") < 0) {
      return template;
    }
    Matcher matcher = FIELD.matcher(template);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      JsonNode value = input;
      for (String segment : PATH_DOT.splitAsStream(matcher.group(1)).toList()) {
        value = value.path(segment);
      }
      String text =
          value.isMissingNode() || value.isNull()
              ? ""
              : value.isString() ? value.asString() : value.toString();
      matcher.appendReplacement(out, Matcher.quoteReplacement(text));
    }
    matcher.appendTail(out);
    return out.toString();
  }
}
