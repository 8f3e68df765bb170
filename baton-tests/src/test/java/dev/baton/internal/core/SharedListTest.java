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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

  @Test
  void appendsShareFreeRoomButNeverChangeAnotherList() {
    List<String> base = SharedList.copyOf(List.of("a"));
    List<String> first = SharedList.append(base, "b");
    List<String> second = SharedList.append(base, "c");
    List<String> longer = SharedList.append(first, "d");
    List<String> branch = SharedList.append(first, "e");

    assertThat(base).containsExactly("a");
    assertThat(first).containsExactly("a", "b");
    assertThat(second).containsExactly("a", "c");
    assertThat(longer).containsExactly("a", "b", "d");
    assertThat(branch).containsExactly("a", "b", "e");
  }

  @Test
  void aListGrowsPastItsRoomAndStaysIntact() {
    List<Integer> list = SharedList.of();
    List<List<Integer>> every = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      list = SharedList.append(list, i);
      every.add(list);
    }
    for (int i = 0; i < every.size(); i++) {
      assertThat(every.get(i)).hasSize(i + 1).endsWith(i).startsWith(0);
    }
  }

  @Test
  void aSubListIsAnImmutableRangeThatGrowsLikeAnyList() {
    List<String> list = SharedList.copyOf(List.of("system", "a", "b"));
    List<String> history = list.subList(1, 3);
    List<String> grown = SharedList.append(history, "c");

    assertThat(history).containsExactly("a", "b").isInstanceOf(SharedList.class);
    assertThat(SharedList.copyOf(history)).isSameAs(history);
    assertThat(grown).containsExactly("a", "b", "c");
    assertThat(list).containsExactly("system", "a", "b");
    assertThat(history.subList(1, 2)).containsExactly("b");
    assertThat(history.toArray()).containsExactly("a", "b");
    assertThat(history.toArray(new String[0])).containsExactly("a", "b");
    assertThatThrownBy(() -> history.subList(0, 3)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> history.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void withReplacesOneElementInACopy() {
    List<String> list = SharedList.copyOf(List.of("a", "b"));
    assertThat(SharedList.with(list, 1, "x")).containsExactly("a", "x");
    assertThat(list).containsExactly("a", "b");
    assertThatThrownBy(() -> SharedList.with(list, 2, "x"))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void aBuilderHandsItsArrayToTheListOnce() {
    SharedList.Builder<String> builder = SharedList.builder(1);
    builder.add("a").addAll(SharedList.copyOf(List.of("b", "c"))).addAll(List.of("d"));
    List<String> built = builder.build();

    assertThat(built).containsExactly("a", "b", "c", "d");
    assertThatThrownBy(() -> builder.add("e")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> SharedList.<String>builder(1).add(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void concurrentAppendsToOneListEachGetTheirOwnElement() throws Exception {
    List<String> base = SharedList.copyOf(List.of("base"));
    int threads = 16;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<List<String>>> results = new ArrayList<>();
    try (ExecutorService executor = Executors.newFixedThreadPool(threads)) {
      for (int t = 0; t < threads; t++) {
        String element = "t" + t;
        results.add(
            executor.submit(
                () -> {
                  start.await();
                  return SharedList.append(base, element);
                }));
      }
      start.countDown();
      for (int t = 0; t < threads; t++) {
        assertThat(results.get(t).get()).containsExactly("base", "t" + t);
      }
    }
    assertThat(base).containsExactly("base");
  }
}
