package dev.baton.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.rules.fixtures.JsonValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;

/** The JSON contract fails a module whose values share their trees, and only then. */
class JsonCopyContractTest {

  @Test
  void recordsThatCopyTheirTreesInAndOutPass() {
    Contract contract = new Contract(JsonValues.Copied.class);

    assertThat(contract.checked())
        .containsExactly(
            JsonValues.Copied.class.getName() + ".tree",
            JsonValues.Copied.class.getName() + ".trees");
    assertThat(failures(contract.changingATreePassedInLeavesTheValueAsItWas())).isEmpty();
    assertThat(failures(contract.changingATreeHandedOutLeavesTheValueAsItWas())).isEmpty();
  }

  @Test
  void aRecordThatHandsOutItsTreeFails() {
    Contract contract = new Contract(JsonValues.HandedOut.class);

    assertThat(failures(contract.changingATreePassedInLeavesTheValueAsItWas())).isEmpty();
    assertThat(failures(contract.changingATreeHandedOutLeavesTheValueAsItWas()))
        .containsExactly(JsonValues.HandedOut.class.getName() + ".tree");
  }

  @Test
  void aRecordThatKeepsTheCallersTreeFails() {
    Contract contract = new Contract(JsonValues.KeptIn.class);

    assertThat(failures(contract.changingATreePassedInLeavesTheValueAsItWas()))
        .containsExactly(JsonValues.KeptIn.class.getName() + ".tree");
    assertThat(failures(contract.changingATreeHandedOutLeavesTheValueAsItWas())).isEmpty();
  }

  @Test
  void componentsThatCouldHideATreeFailUnlessNamedWithAReason() {
    List<Class<?>> types =
        List.of(JsonValues.Opaque.class, JsonValues.Generic.class, JsonValues.Bounded.class);
    String opaque = JsonValues.Opaque.class.getName();
    String generic = JsonValues.Generic.class.getName();

    assertThatThrownBy(new Contract(types)::componentsThatCouldHideATreeAreNamedWithAReason)
        .hasMessageContaining(
            "[" + generic + ".value, " + opaque + ".attributes, " + opaque + ".value]");

    Contract named = new Contract(types);
    named.opaque.put(opaque + ".attributes", "holds strings");
    named.opaque.put(opaque + ".value", "holds a string");
    named.opaque.put(generic + ".value", "holds what it is given");
    assertThatCode(named::componentsThatCouldHideATreeAreNamedWithAReason)
        .doesNotThrowAnyException();

    named.opaque.put(opaque + ".name", "a string, which could hide nothing");
    assertThatThrownBy(named::componentsThatCouldHideATreeAreNamedWithAReason)
        .hasMessageContaining("names what needs no entry: [" + opaque + ".name]");

    named.opaque.remove(opaque + ".name");
    named.opaque.put(generic + ".value", " ");
    assertThatThrownBy(named::componentsThatCouldHideATreeAreNamedWithAReason)
        .hasMessageContaining("gives no reason for [" + generic + ".value]");
  }

  @Test
  void aClassThatTakesOrReturnsJsonMustBeInTheTable() {
    Contract untabled = new Contract(JsonValues.SharedHolder.class);
    assertThatThrownBy(untabled::everyClassThatTakesOrReturnsJsonIsInTheTable)
        .hasMessageContaining("[" + JsonValues.SharedHolder.class.getName() + "]");

    Contract excused = new Contract(JsonValues.SharedHolder.class);
    excused.notHolders.put(JsonValues.SharedHolder.class, "a fixture");
    assertThatCode(excused::everyClassThatTakesOrReturnsJsonIsInTheTable)
        .doesNotThrowAnyException();
  }

  @Test
  void aTableLineChecksItsClassBothWays() {
    Contract sharing = new Contract(JsonValues.SharedHolder.class);
    sharing.holders.add(
        JsonHolder.of(
            JsonValues.SharedHolder.class,
            "tree",
            JsonValues.SharedHolder::new,
            JsonValues.SharedHolder::tree));
    String line = JsonValues.SharedHolder.class.getName() + ".tree";
    assertThatCode(sharing::everyClassThatTakesOrReturnsJsonIsInTheTable)
        .doesNotThrowAnyException();
    assertThat(failures(sharing.changingATreePassedInLeavesTheValueAsItWas()))
        .containsExactly(line);
    assertThat(failures(sharing.changingATreeHandedOutLeavesTheValueAsItWas()))
        .containsExactly(line);

    Contract copying = new Contract(JsonValues.CopyingHolder.class);
    copying.holders.add(
        JsonHolder.of(
            JsonValues.CopyingHolder.class,
            "tree",
            JsonValues.CopyingHolder::new,
            JsonValues.CopyingHolder::tree));
    assertThat(failures(copying.changingATreePassedInLeavesTheValueAsItWas())).isEmpty();
    assertThat(failures(copying.changingATreeHandedOutLeavesTheValueAsItWas())).isEmpty();
  }

  /** The names of the dynamic tests that fail an assertion. */
  private static List<String> failures(Stream<DynamicTest> tests) {
    List<String> failed = new ArrayList<>();
    tests.forEach(
        test -> {
          try {
            test.getExecutable().execute();
          } catch (AssertionError e) {
            failed.add(test.getDisplayName());
          } catch (Throwable e) {
            throw new IllegalStateException(test.getDisplayName() + " could not run", e);
          }
        });
    return failed;
  }

  /** The contract over fixtures, with a table and allow-lists a test fills in. */
  private static final class Contract extends JsonCopyContract {
    final List<Class<?>> types;
    final List<JsonHolder<?>> holders = new ArrayList<>();
    final Map<Class<?>, String> notHolders = new LinkedHashMap<>();
    final Map<String, String> opaque = new LinkedHashMap<>();

    Contract(Class<?> type) {
      this(List.of(type));
    }

    Contract(List<Class<?>> types) {
      this.types = types;
    }

    @Override
    protected List<Class<?>> publicTypes() {
      return types;
    }

    @Override
    protected List<JsonHolder<?>> holders() {
      return holders;
    }

    @Override
    protected Map<Class<?>, String> notHolders() {
      return notHolders;
    }

    @Override
    protected Map<String, String> opaqueComponents() {
      return opaque;
    }
  }
}
