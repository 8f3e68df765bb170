package dev.baton.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class JsonPatchTest {
  private static final TypeReference<List<JsonPatchOperation>> OPS = new TypeReference<>() {};

  /** JSON written with single quotes, to keep the tests readable. */
  private static JsonNode json(String text) {
    return Json.parse(text.replace('\'', '"'));
  }

  private static String diffJson(String from, String to) {
    return Json.write(JsonPatch.diff(json(from), json(to))).replace('"', '\'');
  }

  private static JsonNode apply(String document, JsonPatchOperation... ops) {
    return JsonPatch.apply(json(document), List.of(ops));
  }

  private static void assertStatus(ThrowingCallable call, Status status) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(status));
  }

  @Test
  void diffVisitsObjectKeysInSortedOrder() {
    assertThat(diffJson("{'z':1,'b':1,'a':1}", "{'z':2,'c':3,'a':1}"))
        .isEqualTo(
            "[{'op':'remove','path':'/b','value':null},"
                + "{'op':'add','path':'/c','value':3},"
                + "{'op':'replace','path':'/z','value':2}]");
  }

  @Test
  void diffRecursesIntoNestedObjects() {
    assertThat(
            diffJson("{'a':{'b':{'c':1,'d':2}},'k':true}", "{'a':{'b':{'c':5,'e':[1]}},'k':true}"))
        .isEqualTo(
            "[{'op':'replace','path':'/a/b/c','value':5},"
                + "{'op':'remove','path':'/a/b/d','value':null},"
                + "{'op':'add','path':'/a/b/e','value':[1]}]");
  }

  @Test
  void diffComparesArraysByIndexAndAppendsWithDash() {
    assertThat(diffJson("{'xs':[1,{'n':1}]}", "{'xs':[1,{'n':2},4,5]}"))
        .isEqualTo(
            "[{'op':'replace','path':'/xs/1/n','value':2},"
                + "{'op':'add','path':'/xs/-','value':4},"
                + "{'op':'add','path':'/xs/-','value':5}]");
  }

  @Test
  void diffRemovesArrayTailHighestIndexFirst() {
    assertThat(diffJson("{'xs':[1,2,3,4]}", "{'xs':[1]}"))
        .isEqualTo(
            "[{'op':'remove','path':'/xs/3','value':null},"
                + "{'op':'remove','path':'/xs/2','value':null},"
                + "{'op':'remove','path':'/xs/1','value':null}]");
  }

  @Test
  void diffReplacesOnTypeOrPrimitiveChange() {
    assertThat(diffJson("{'a':{'b':1},'c':1,'d':null}", "{'a':[1],'c':'1','d':false}"))
        .isEqualTo(
            "[{'op':'replace','path':'/a','value':[1]},"
                + "{'op':'replace','path':'/c','value':'1'},"
                + "{'op':'replace','path':'/d','value':false}]");
  }

  @Test
  void diffReplacesTheWholeDocumentOnARootChange() {
    assertThat(diffJson("{'a':1}", "[1]")).isEqualTo("[{'op':'replace','path':'','value':[1]}]");
    assertThat(diffJson("1", "2")).isEqualTo("[{'op':'replace','path':'','value':2}]");
    assertThat(diffJson("null", "{'counter':1}"))
        .isEqualTo("[{'op':'replace','path':'','value':{'counter':1}}]");
  }

  @Test
  void diffOfEqualDocumentsIsEmptyAndComparesNumbersByValue() {
    assertThat(JsonPatch.diff(json("{'a':[1,{'b':2.0}]}"), json("{'a':[1.0,{'b':2}]}"))).isEmpty();
    assertThat(JsonPatch.diff(json("{}"), json("{}"))).isEmpty();
  }

  @Test
  void diffMatchesTheSpecCounterExample() {
    assertThat(diffJson("{'counter':1,'status':'working'}", "{'counter':2,'status':'working'}"))
        .isEqualTo("[{'op':'replace','path':'/counter','value':2}]");
  }

  @Test
  void applyOfDiffReproducesTheTargetAlsoAfterAWireRoundTrip() {
    List<String> documents =
        List.of(
            "{}",
            "{'a':1,'b':{'c':[1,2,3],'d':null},'e':'x'}",
            "{'a':1.5,'b':{'c':[3],'f':{'g':true}},'h/i':{'~':[]}}",
            "{'b':{'c':[{'x':1},{'y':[2,[3]]},4,5,6]},'e':null}",
            "[1,'two',{'three':3},[4]]",
            "[]",
            "'text'",
            "null",
            "42");
    for (String from : documents) {
      for (String to : documents) {
        List<JsonPatchOperation> ops = JsonPatch.diff(json(from), json(to));
        List<JsonPatchOperation> wire = Json.convert(Json.parse(Json.write(ops)), OPS);
        assertThat(wire).as("%s -> %s", from, to).isEqualTo(ops);
        JsonNode result = JsonPatch.apply(json(from), wire);
        assertThat(Json.jsonEquals(result, json(to)))
            .as("%s -> %s gave %s", from, to, result)
            .isTrue();
      }
    }
  }

  @Test
  void valueIsAlwaysWrittenAndAnExplicitNullSurvivesTheWire() {
    JsonPatchOperation setNull = JsonPatchOperation.add("/a", Json.nodes().nullNode());
    String text = Json.write(setNull);
    assertThat(text).isEqualTo("{\"op\":\"add\",\"path\":\"/a\",\"value\":null}");
    JsonPatchOperation back = Json.read(text, JsonPatchOperation.class);
    assertThat(back).isEqualTo(setNull);
    assertThat(back.value().isNull()).isTrue();
    assertThat(JsonPatch.apply(json("{}"), List.of(back))).isEqualTo(json("{'a':null}"));

    assertThat(Json.write(JsonPatchOperation.move("/a", "/b")))
        .isEqualTo("{\"op\":\"move\",\"path\":\"/b\",\"value\":null,\"from\":\"/a\"}");
    JsonPatchOperation withoutValue =
        Json.read("{\"op\":\"remove\",\"path\":\"/a\"}", JsonPatchOperation.class);
    assertThat(withoutValue).isEqualTo(JsonPatchOperation.remove("/a"));
  }

  @Test
  void rootOperationsReplaceTheWholeDocument() {
    assertThat(apply("{'a':1}", JsonPatchOperation.replace("", json("[1,2]"))))
        .isEqualTo(json("[1,2]"));
    assertThat(apply("{'a':1}", JsonPatchOperation.add("", json("'x'")))).isEqualTo(json("'x'"));
    assertThat(
            apply(
                "{'a':1}",
                JsonPatchOperation.test("", json("{'a':1.0}")),
                JsonPatchOperation.replace("", json("{'counter':1}")),
                JsonPatchOperation.replace("/counter", json("2"))))
        .isEqualTo(json("{'counter':2}"));
    assertStatus(() -> apply("{'a':1}", JsonPatchOperation.remove("")), Status.INVALID_ARGUMENT);
  }

  @Test
  void addCreatesMissingParentsAsObjects() {
    assertThat(apply("{'a':{}}", JsonPatchOperation.add("/a/b/c", json("1"))))
        .isEqualTo(json("{'a':{'b':{'c':1}}}"));
    assertThat(apply("null", JsonPatchOperation.add("/counter", json("1"))))
        .isEqualTo(json("{'counter':1}"));
    assertStatus(
        () -> apply("{'a':5}", JsonPatchOperation.add("/a/b", json("1"))), Status.INVALID_ARGUMENT);
  }

  @Test
  void removeAndReplaceOfMissingMembersDoNothing() {
    String document = "{'a':{'b':1},'xs':[1]}";
    assertThat(
            apply(
                document,
                JsonPatchOperation.remove("/missing"),
                JsonPatchOperation.remove("/no/such/parent"),
                JsonPatchOperation.remove("/xs/3"),
                JsonPatchOperation.replace("/a/c", json("2")),
                JsonPatchOperation.replace("/xs/-", json("2")),
                JsonPatchOperation.replace("/q/r", json("2"))))
        .isEqualTo(json(document));
  }

  @Test
  void applyNeverMutatesTheDocumentOrTheOperations() {
    JsonNode document = json("{'a':{'b':[1]}}");
    JsonPatchOperation addObject = JsonPatchOperation.add("/a/c", json("{'d':1}"));
    JsonNode result =
        JsonPatch.apply(
            document,
            List.of(
                JsonPatchOperation.add("/a/b/-", json("2")),
                addObject,
                JsonPatchOperation.add("/a/c/e", json("2")),
                JsonPatchOperation.remove("/a/b/0")));
    assertThat(result).isEqualTo(json("{'a':{'b':[2],'c':{'d':1,'e':2}}}"));
    assertThat(document).isEqualTo(json("{'a':{'b':[1]}}"));
    assertThat(addObject.value()).isEqualTo(json("{'d':1}"));

    ((ObjectNode) result.get("a")).put("later", true);
    assertThat(document).isEqualTo(json("{'a':{'b':[1]}}"));
  }

  @Test
  void operationsCopyTheirValueOnConstruction() {
    ObjectNode value = (ObjectNode) json("{'n':1}");
    JsonPatchOperation op = JsonPatchOperation.replace("/x", value);
    value.put("n", 2);
    assertThat(op.value()).isEqualTo(json("{'n':1}"));
  }

  @Test
  void testPassesOnEqualValuesAndFailsOtherwise() {
    assertThat(
            apply(
                "{'n':1,'xs':[{'k':'v'}]}",
                JsonPatchOperation.test("/n", json("1.0")),
                JsonPatchOperation.test("/xs/0", json("{'k':'v'}")),
                JsonPatchOperation.replace("/n", json("2"))))
        .isEqualTo(json("{'n':2,'xs':[{'k':'v'}]}"));
    assertStatus(
        () -> apply("{'n':1}", JsonPatchOperation.test("/n", json("2"))),
        Status.FAILED_PRECONDITION);
    assertStatus(
        () -> apply("{'n':1}", JsonPatchOperation.test("/m", json("null"))),
        Status.FAILED_PRECONDITION);
  }

  @Test
  void moveRelocatesAValue() {
    assertThat(apply("{'a':{'b':1},'c':[0]}", JsonPatchOperation.move("/a/b", "/c/0")))
        .isEqualTo(json("{'a':{},'c':[1,0]}"));
    assertThat(apply("{'xs':[1,2,3]}", JsonPatchOperation.move("/xs/0", "/xs/-")))
        .isEqualTo(json("{'xs':[2,3,1]}"));
    assertThat(apply("{'a':1}", JsonPatchOperation.move("/a", "/a"))).isEqualTo(json("{'a':1}"));
    assertStatus(
        () -> apply("{'a':{'b':1}}", JsonPatchOperation.move("/a", "/a/b/c")),
        Status.INVALID_ARGUMENT);
    assertStatus(
        () -> apply("{'a':1}", JsonPatchOperation.move("/missing", "/b")), Status.INVALID_ARGUMENT);
  }

  @Test
  void copyDuplicatesAValueIndependently() {
    assertThat(
            apply(
                "{'a':{'b':[1]}}",
                JsonPatchOperation.copy("/a", "/z/copy"),
                JsonPatchOperation.add("/z/copy/b/-", json("2"))))
        .isEqualTo(json("{'a':{'b':[1]},'z':{'copy':{'b':[1,2]}}}"));
    assertStatus(
        () -> apply("{}", JsonPatchOperation.copy("/missing", "/b")), Status.INVALID_ARGUMENT);
  }

  @Test
  void addInsertsBeforeAnArrayIndexAndAppendsWithDash() {
    assertThat(
            apply(
                "[1,3]",
                JsonPatchOperation.add("/1", json("2")),
                JsonPatchOperation.add("/0", json("0")),
                JsonPatchOperation.add("/4", json("4")),
                JsonPatchOperation.add("/-", json("5"))))
        .isEqualTo(json("[0,1,2,3,4,5]"));
    assertThat(apply("{'xs':[1]}", JsonPatchOperation.replace("/xs/0", json("9"))))
        .isEqualTo(json("{'xs':[9]}"));
    assertStatus(
        () -> apply("[1]", JsonPatchOperation.add("/2", json("0"))), Status.INVALID_ARGUMENT);
    assertStatus(
        () -> apply("[1]", JsonPatchOperation.add("/01", json("0"))), Status.INVALID_ARGUMENT);
  }

  @Test
  void pointersEscapeTildeAndSlash() {
    List<JsonPatchOperation> ops =
        JsonPatch.diff(json("{'~1':0}"), json("{'a/b':1,'m~n':2,'~1':3}"));
    assertThat(ops)
        .containsExactly(
            JsonPatchOperation.add("/a~1b", json("1")),
            JsonPatchOperation.add("/m~0n", json("2")),
            JsonPatchOperation.replace("/~01", json("3")));
    assertThat(JsonPatch.apply(json("{'~1':0}"), ops)).isEqualTo(json("{'a/b':1,'m~n':2,'~1':3}"));
    assertThat(apply("{'a':{'/':{'~':1}}}", JsonPatchOperation.remove("/a/~1/~0")))
        .isEqualTo(json("{'a':{'/':{}}}"));
  }

  @Test
  void malformedPointersAreRejected() {
    assertStatus(
        () -> apply("{}", JsonPatchOperation.add("a", json("1"))), Status.INVALID_ARGUMENT);
    assertStatus(
        () -> apply("{}", JsonPatchOperation.add("/a~2", json("1"))), Status.INVALID_ARGUMENT);
    assertStatus(
        () -> apply("{}", JsonPatchOperation.add("/a~", json("1"))), Status.INVALID_ARGUMENT);
  }

  @Test
  void unknownOrIncompleteOperationsAreRejectedWhenRead() {
    assertThatThrownBy(
            () ->
                Json.read(
                    "{\"op\":\"merge\",\"path\":\"/a\",\"value\":1}", JsonPatchOperation.class))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("merge");
    assertStatus(
        () -> Json.read("{\"op\":\"move\",\"path\":\"/a\"}", JsonPatchOperation.class),
        Status.INVALID_ARGUMENT);
    assertStatus(
        () -> Json.read("{\"path\":\"/a\",\"value\":1}", JsonPatchOperation.class),
        Status.INVALID_ARGUMENT);
    assertStatus(() -> JsonPatchOperation.Op.fromWireName("ADD"), Status.INVALID_ARGUMENT);
  }
}
