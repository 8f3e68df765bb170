package dev.baton.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.Json;
import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class SharedListTest {

  @Test
  void aCopyIsImmutableAndDetachedFromItsSource() {
    List<String> source = new ArrayList<>(List.of("a", "b"));
    List<String> copy = SharedList.copyOf(source);
    source.set(0, "changed");

    assertThat(copy).containsExactly("a", "b");
    assertThatThrownBy(() -> copy.add("c")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> copy.set(0, "c")).isInstanceOf(UnsupportedOperationException.class);
    copy.toArray()[0] = "c";
    assertThat(copy).containsExactly("a", "b");
  }

  @Test
  void aSharedListIsSharedNotCopied() {
    List<String> shared = SharedList.copyOf(List.of("a"));
    assertThat(SharedList.copyOf(shared)).isSameAs(shared);
    assertThat(SharedList.copyOf(List.of("a"))).isNotSameAs(shared);
  }

  @Test
  void appendLeavesTheOriginalAsItWas() {
    List<String> one = SharedList.copyOf(List.of("a"));
    List<String> two = SharedList.append(one, "b");
    List<String> fromPlain = SharedList.append(List.of("x"), "y");

    assertThat(one).containsExactly("a");
    assertThat(two).containsExactly("a", "b");
    assertThat(fromPlain).containsExactly("x", "y");
  }

  @Test
  void toArrayFillsOrReplacesTheGivenArrayAsTheListContractSays() {
    List<String> shared = SharedList.copyOf(List.of("a", "b"));
    assertThat(shared.toArray(new String[0])).containsExactly("a", "b");
    String[] larger = {"x", "x", "x", "x"};
    assertThat(shared.toArray(larger)).isSameAs(larger).containsExactly("a", "b", null, "x");
    Object[] copy = shared.toArray();
    copy[0] = "changed";
    assertThat(shared).containsExactly("a", "b");
  }

  @Test
  void aCollectionThatKeepsTheArrayItHandsOutCannotChangeTheCopy() {
    Object[] kept = {"a", "b"};
    Collection<String> leaky =
        new AbstractCollection<>() {
          @Override
          @SuppressWarnings("unchecked")
          public Iterator<String> iterator() {
            return (Iterator<String>) (Iterator<?>) Arrays.asList(kept).iterator();
          }

          @Override
          public int size() {
            return kept.length;
          }

          @Override
          public Object[] toArray() {
            return kept; // breaks the toArray contract
          }
        };
    List<String> copy = SharedList.copyOf(leaky);
    kept[0] = null;

    assertThat(copy).containsExactly("a", "b");
  }

  @Test
  void viewsAndIteratorsCannotChangeIt() {
    List<String> shared = SharedList.copyOf(List.of("a", "b"));
    assertThatThrownBy(() -> shared.subList(0, 1).set(0, "x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(
            () -> {
              Iterator<String> iterator = shared.iterator();
              iterator.next();
              iterator.remove();
            })
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> shared.toArray(new Integer[0]))
        .isInstanceOf(ArrayStoreException.class);
    assertThat(SharedList.of()).isEmpty();
    assertThat(SharedList.append(SharedList.of(), "a")).containsExactly("a");
  }

  @Test
  void nullsAreRejectedAsListOfRejectsThem() {
    assertThatThrownBy(() -> SharedList.copyOf(Arrays.asList("a", null)))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> SharedList.append(Arrays.asList((String) null), "b"))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> SharedList.append(List.of("a"), null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void itEqualsAndHashesLikeAnyListWithTheSameElements() {
    List<String> shared = SharedList.copyOf(List.of("a", "b"));
    assertThat(shared).isEqualTo(List.of("a", "b")).hasSameHashCodeAs(List.of("a", "b"));
    assertThat(List.of("a", "b")).isEqualTo(shared);
    assertThat(Json.write(shared)).isEqualTo("[\"a\",\"b\"]");
  }
}
